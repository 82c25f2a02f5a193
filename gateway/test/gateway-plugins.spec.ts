import { once } from 'node:events';
import { type IncomingMessage, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from './support/gateway.fixture';
import { awayFromWindowEdge } from './support/rate-window';
import { rawRequest } from './support/raw-request';
import { startUpstream, type TestUpstream, type UpstreamEcho, unusedPort } from './support/upstream.server';

const KB = 1024;
const HOUR = 3_600_000;

const kongYml = (downPort: number): string => `
_format_version: "3.0"
services:
  - name: api
    url: http://api:3001
    routes:
      - name: api
        paths: [/api]
        strip_path: false
      - name: signin
        paths: [/api/users/signin]
        methods: [POST]
        strip_path: false
        plugins:
          - name: rate-limiting
            config: { hour: 3, policy: local, limit_by: ip }
  - name: media
    url: http://media:3006
    routes:
      - name: media
        paths: [/api/media]
        strip_path: false
        plugins:
          - name: request-size-limiting
            config: { allowed_payload_size: 4, size_unit: kilobytes }
  - name: stream
    url: http://stream:3007
    routes:
      - name: stream
        paths: [/stream]
        strip_path: false
  - name: slow
    url: http://slow:3008
    read_timeout: 300
    routes:
      - name: slow
        paths: [/slow]
        strip_path: false
  - name: rude
    url: http://rude:3009
    routes:
      - name: rude
        paths: [/rude]
        strip_path: false
  - name: down
    url: http://down:${downPort}
    routes:
      - name: down
        paths: [/down]
        strip_path: false
  - name: nowhere
    url: http://no-such-host.invalid:3010
    routes:
      - name: nowhere
        paths: [/nowhere]
        strip_path: false
plugins:
  - name: correlation-id
    config: { header_name: Kong-Request-ID, generator: uuid#counter, echo_downstream: true }
  - name: cors
    config:
      origins: [http://localhost:8000, http://127.0.0.1:8000]
      methods: [GET, POST, PUT, DELETE, OPTIONS]
      headers: [Authorization, Content-Type, Idempotency-Key]
      exposed_headers: [X-Total-Count, Kong-Request-ID]
      credentials: false
      max_age: 600
  - name: request-size-limiting
    config: { allowed_payload_size: 1, size_unit: kilobytes }
  - name: rate-limiting
    config: { minute: 1000, policy: local, limit_by: ip }
`;

describe('plugins and proxy behaviour', () => {
  let api: TestUpstream;
  let media: TestUpstream;
  let stream: TestUpstream;
  let slow: TestUpstream;
  let rude: TestUpstream;
  let gateway: TestGateway;
  let firstStreamChunk: Promise<void>;

  beforeAll(async () => {
    api = await startUpstream('api');
    media = await startUpstream('media');
    let reportFirstChunk: () => void = () => undefined;
    firstStreamChunk = new Promise((resolve) => (reportFirstChunk = resolve));
    stream = await startUpstream('stream', (req, res, echo) => {
      let bytes = 0;
      req.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        reportFirstChunk();
      });
      req.on('end', () => res.end(JSON.stringify({ ...echo(), bodyBytes: bytes })));
    });
    slow = await startUpstream('slow', (_req, res) => {
      setTimeout(() => res.end('late'), 2_000).unref();
    });
    rude = await startUpstream('rude', (req) => req.socket.destroy());
    const downPort = await unusedPort();
    gateway = await startTestGateway(
      { yaml: kongYml(downPort) },
      {
        api: api.address,
        media: media.address,
        stream: stream.address,
        slow: slow.address,
        rude: rude.address,
        down: `127.0.0.1:${downPort}`,
      },
    );
  });

  afterAll(async () => {
    await gateway?.close();
    await Promise.all([api, media, stream, slow, rude].map((upstream) => upstream?.close()));
  });

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

  describe('request-size-limiting', () => {
    it('answers 413 when Content-Length is over the limit, without calling the service', async () => {
      const before = api.seen.length;
      const res = await rawRequest(gateway.url, '/api/orders', {
        method: 'POST',
        body: Buffer.alloc(KB + 1),
      });
      expect(res.status).toBe(413);
      expect(res.json()).toEqual({ message: 'Request size limit exceeded' });
      expect(api.seen.length).toBe(before);
      const exact = await rawRequest(gateway.url, '/api/orders', { method: 'POST', body: Buffer.alloc(KB) });
      expect(exact.json<UpstreamEcho>().bodyBytes).toBe(KB);
    });

    it('answers 417 instead when the client waits for 100 Continue', async () => {
      const res = await rawRequest(gateway.url, '/api/orders', {
        method: 'POST',
        headers: { expect: '100-continue', 'content-length': String(2 * KB) },
        body: Buffer.alloc(2 * KB),
      });
      expect(res.status).toBe(417);
    });

    it('passes a request that waits for 100 Continue when it is within the limit', async () => {
      const res = await rawRequest(gateway.url, '/api/orders', {
        method: 'POST',
        headers: { expect: '100-continue', 'content-length': '10' },
        body: Buffer.alloc(10),
      });
      expect(res.status).toBe(200);
      const echo = res.json<UpstreamEcho>();
      expect(echo.bodyBytes).toBe(10);
      expect(echo.headers.expect).toBeUndefined();
    });

    it('answers 413 to a large chunked upload while it is still being sent', async () => {
      const chunks = Array.from({ length: 48 }, () => Buffer.alloc(64 * KB));
      const res = await rawRequest(gateway.url, '/api/orders', { method: 'POST', chunks });
      expect(res.status).toBe(413);
      expect(res.json()).toEqual({ message: 'Request size limit exceeded' });
    });

    it('counts streamed (chunked) bodies and answers 413 once they pass the limit', async () => {
      const before = api.seen.length;
      const res = await rawRequest(gateway.url, '/api/orders', {
        method: 'POST',
        chunks: [Buffer.alloc(600), Buffer.alloc(600), Buffer.alloc(600)],
      });
      expect(res.status).toBe(413);
      expect(res.json()).toEqual({ message: 'Request size limit exceeded' });
      expect(res.headers['kong-request-id']).toBeDefined();
      // The service never sees a complete request: its copy was cut off.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(api.seen.slice(before).filter((echo) => echo.url === '/api/orders')).toEqual([]);

      const small = await rawRequest(gateway.url, '/api/orders', {
        method: 'POST',
        chunks: [Buffer.alloc(500), Buffer.alloc(500)],
      });
      expect(small.json<UpstreamEcho>().bodyBytes).toBe(1000);
    });

    it('lets the media route take larger bodies than the global limit', async () => {
      const withLength = await rawRequest(gateway.url, '/api/media', {
        method: 'POST',
        body: Buffer.alloc(3 * KB),
      });
      expect(withLength.status).toBe(200);
      expect(withLength.json<UpstreamEcho>().bodyBytes).toBe(3 * KB);
      const chunked = await rawRequest(gateway.url, '/api/media', {
        method: 'POST',
        chunks: [Buffer.alloc(2 * KB), Buffer.alloc(KB)],
      });
      expect(chunked.json<UpstreamEcho>().bodyBytes).toBe(3 * KB);
      const tooBig = await rawRequest(gateway.url, '/api/media', {
        method: 'POST',
        body: Buffer.alloc(5 * KB),
      });
      expect(tooBig.status).toBe(413);
    });

    it('streams the body to the service instead of buffering it', async () => {
      const req = request({
        host: '127.0.0.1',
        port: gateway.port,
        method: 'POST',
        path: '/stream',
        agent: false,
      });
      const response = once(req, 'response');
      req.write(Buffer.alloc(100));
      // The service must see the first chunk while the client is still sending.
      await Promise.race([
        firstStreamChunk,
        new Promise((_resolve, reject) =>
          setTimeout(() => reject(new Error('the body was not streamed')), 3_000),
        ),
      ]);
      req.end(Buffer.alloc(100));
      const [res] = (await response) as [IncomingMessage];
      const parts: Buffer[] = [];
      for await (const part of res) parts.push(part as Buffer);
      expect(JSON.parse(Buffer.concat(parts).toString()).bodyBytes).toBe(200);
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
        expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThan(0);
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

  describe('upstream failures', () => {
    it('answers 502 JSON when the service refuses connections', async () => {
      const res = await rawRequest(gateway.url, '/down/x');
      expect(res.status).toBe(502);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ message: 'An invalid response was received from the upstream server' });
    });

    it('answers 502 JSON when the service drops the connection', async () => {
      const res = await rawRequest(gateway.url, '/rude');
      expect(res.status).toBe(502);
      expect(res.json()).toEqual({ message: 'An invalid response was received from the upstream server' });
    });

    it('retries a body-less idempotent request once when a kept-alive connection turns out dead', async () => {
      const requestsPerSocket = new Map<unknown, number>();
      const flaky = await startUpstream('flaky', (req, res, echo) => {
        const count = (requestsPerSocket.get(req.socket) ?? 0) + 1;
        requestsPerSocket.set(req.socket, count);
        // Every second request on a connection finds it closed, like a service whose idle timeout just fired.
        if (count === 2) {
          req.socket.destroy();
          return;
        }
        req.resume();
        req.on('end', () => res.end(JSON.stringify(echo())));
      });
      const flakyGateway = await startTestGateway(
        {
          yaml: '_format_version: "3.0"\nservices:\n  - name: flaky\n    url: http://flaky:1\n    routes: [{ name: f, paths: [/], strip_path: false }]\n',
        },
        { flaky: flaky.address },
      );
      try {
        expect((await rawRequest(flakyGateway.url, '/one')).status).toBe(200);
        expect((await rawRequest(flakyGateway.url, '/two')).status).toBe(200);
        expect((await rawRequest(flakyGateway.url, '/three')).status).toBe(200);
        // A request with a body cannot be replayed, so it reports the failure.
        const post = await rawRequest(flakyGateway.url, '/four', { method: 'POST', body: 'x' });
        expect(post.status).toBe(502);
      } finally {
        await flakyGateway.close();
        await flaky.close();
      }
    });

    it('answers 503 JSON when the service name does not resolve', async () => {
      const res = await rawRequest(gateway.url, '/nowhere');
      expect(res.status).toBe(503);
      expect(res.json()).toEqual({ message: 'name resolution failed' });
    });

    it('answers 504 JSON when the service is slower than read_timeout', async () => {
      const res = await rawRequest(gateway.url, '/slow');
      expect(res.status).toBe(504);
      expect(res.json()).toEqual({ message: 'The upstream server is timing out' });
    });
  });
});

describe('rate-limit factor', () => {
  it('multiplies every limit and says so in the log', async () => {
    const api = await startUpstream('api');
    const gateway = await startTestGateway(
      {
        yaml: `
_format_version: "3.0"
services:
  - name: api
    url: http://api:3001
    routes: [{ name: api, paths: [/api], strip_path: false }]
plugins:
  - name: rate-limiting
    config: { minute: 10, hour: 100, limit_by: ip }
`,
      },
      { api: api.address },
      5,
    );
    try {
      const res = await rawRequest(gateway.url, '/api/x');
      expect(res.headers['x-ratelimit-limit-minute']).toBe('50');
      expect(res.headers['x-ratelimit-limit-hour']).toBe('500');
      expect(gateway.lines).toContainEqual(expect.objectContaining({ level: 40, rateLimitFactor: 5 }));
    } finally {
      await gateway.close();
      await api.close();
    }
  });
});
