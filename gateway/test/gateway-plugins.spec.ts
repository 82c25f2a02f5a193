import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from './support/gateway.fixture';
import { startPluginsGateway } from './support/plugins-gateway';
import { awayFromWindowEdge } from './support/rate-window';
import { rawRequest } from './support/raw-request';
import type { TestUpstream, UpstreamEcho } from './support/upstream.server';

const HOUR = 3_600_000;

describe('plugins and proxy behaviour', () => {
  let gateway: TestGateway;
  let api: TestUpstream;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ gateway, api, close } = await startPluginsGateway());
  });
  afterAll(() => close?.());

  describe('correlation-id', () => {
    it('generates an id, passes it upstream and echoes it to the client', async () => {
      const res = await rawRequest(gateway.url, '/api/orders');
      const id = res.headers['kong-request-id'];
      expect(id).toMatch(/^[0-9a-f-]{36}#\d+$/);
      expect(res.json<UpstreamEcho>().headers['kong-request-id']).toBe(id);
      const logged = gateway.lines.find((line) => line.msg === 'request' && line.correlationId === id);
      expect(logged).toMatchObject({ path: '/api/orders', status: 200 });
    });

    it('keeps an id the client already sent', async () => {
      const res = await rawRequest(gateway.url, '/api/orders', {
        headers: { 'Kong-Request-ID': 'from-the-browser-1' },
      });
      expect(res.headers['kong-request-id']).toBe('from-the-browser-1');
      expect(res.json<UpstreamEcho>().headers['kong-request-id']).toBe('from-the-browser-1');
    });

    it('echoes the id on answers the gateway gives itself', async () => {
      const res = await rawRequest(gateway.url, '/down');
      expect(res.headers['kong-request-id']).toMatch(/#\d+$/);
    });
  });

  describe('forwarded headers', () => {
    it('overwrites X-Real-IP with the socket address and appends it to X-Forwarded-For', async () => {
      const res = await rawRequest(gateway.url, '/api/whoami?x=1', {
        localAddress: '127.0.0.3',
        headers: {
          'X-Real-IP': '6.6.6.6',
          'X-Forwarded-For': '6.6.6.6',
          'X-Forwarded-Proto': 'https',
          host: 'Shop.Local:8000',
        },
      });
      const { headers } = res.json<UpstreamEcho>();
      expect(headers['x-real-ip']).toBe('127.0.0.3');
      expect(headers['x-forwarded-for']).toBe('6.6.6.6, 127.0.0.3');
      expect(headers['x-forwarded-proto']).toBe('http');
      expect(headers['x-forwarded-host']).toBe('shop.local');
      expect(headers['x-forwarded-port']).toBe(String(gateway.port));
      expect(headers['x-forwarded-path']).toBe('/api/whoami');
    });

    it('keeps upstream connections alive between requests', async () => {
      const before = api.seen.length;
      for (let i = 0; i < 5; i++) await rawRequest(gateway.url, `/api/keepalive/${i}`);
      const sockets = new Set(api.seen.slice(before).map((echo) => echo.socketId));
      expect(sockets.size).toBe(1);
    });
  });

  describe('rate-limiting', () => {
    it('sends Kong’s rate-limit headers, then 429 with Retry-After once the limit is used up', async () => {
      await awayFromWindowEdge(HOUR);
      const ip = '127.0.0.5';
      const remaining: unknown[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await rawRequest(gateway.url, '/api/users/signin', { method: 'POST', localAddress: ip });
        expect(res.status).toBe(200);
        expect(res.headers['x-ratelimit-limit-hour']).toBe('3');
        expect(res.headers['ratelimit-limit']).toBe('3');
        // Seconds until the hour's window ends: within the hour.
        expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThan(0);
        expect(Number(res.headers['ratelimit-reset'])).toBeLessThanOrEqual(HOUR / 1000);
        remaining.push(res.headers['x-ratelimit-remaining-hour']);
      }
      expect(remaining).toEqual(['2', '1', '0']);

      const refused = await rawRequest(gateway.url, '/api/users/signin', {
        method: 'POST',
        localAddress: ip,
        // Claiming another address changes nothing: the socket address is the identity.
        headers: { 'X-Forwarded-For': '9.9.9.9', 'X-Real-IP': '9.9.9.9', origin: 'http://localhost:8000' },
      });
      expect(refused.status).toBe(429);
      expect(refused.json()).toEqual({ message: 'API rate limit exceeded' });
      expect(refused.headers['ratelimit-remaining']).toBe('0');
      expect(refused.headers['x-ratelimit-remaining-hour']).toBe('0');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(HOUR / 1000);
      // The browser can read the refusal: CORS headers are on gateway answers too.
      expect(refused.headers['access-control-allow-origin']).toBe('http://localhost:8000');
    });

    it('counts each client address separately', async () => {
      await awayFromWindowEdge(HOUR);
      const res = await rawRequest(gateway.url, '/api/users/signin', {
        method: 'POST',
        localAddress: '127.0.0.6',
      });
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-remaining-hour']).toBe('2');
    });

    it('applies the global limit where no route or service limit is set', async () => {
      const res = await rawRequest(gateway.url, '/api/orders', { localAddress: '127.0.0.7' });
      expect(res.headers['x-ratelimit-limit-minute']).toBe('1000');
      expect(res.headers['x-ratelimit-limit-hour']).toBeUndefined();
    });
  });

  describe('cors', () => {
    it('answers a preflight at the edge without calling the service', async () => {
      const before = api.seen.length;
      const res = await rawRequest(gateway.url, '/api/orders', {
        method: 'OPTIONS',
        headers: {
          origin: 'http://localhost:8000',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type',
        },
      });
      expect(res.status).toBe(200);
      expect(res.body).toBe('');
      expect(res.headers).toMatchObject({
        'access-control-allow-origin': 'http://localhost:8000',
        'access-control-allow-methods': 'GET,POST,PUT,DELETE,OPTIONS',
        'access-control-allow-headers': 'Authorization,Content-Type,Idempotency-Key',
        'access-control-max-age': '600',
        vary: 'Origin',
      });
      expect(res.headers['kong-request-id']).toBeDefined();
      expect(res.headers['x-ratelimit-limit-minute']).toBeUndefined();
      expect(api.seen.length).toBe(before);
    });

    it('does not allow an origin that is not listed', async () => {
      const res = await rawRequest(gateway.url, '/api/orders', {
        method: 'OPTIONS',
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
      });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('decorates proxied responses for an allowed origin', async () => {
      const res = await rawRequest(gateway.url, '/api/orders', {
        headers: { origin: 'http://127.0.0.1:8000' },
      });
      expect(res.headers['access-control-allow-origin']).toBe('http://127.0.0.1:8000');
      expect(res.headers['access-control-expose-headers']).toBe('X-Total-Count,Kong-Request-ID');
      expect(res.headers.vary).toContain('Origin');
    });
  });
});
