import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from './support/gateway.fixture';
import { startKongYmlGateway } from './support/kong-yml-gateway';
import { awayFromWindowEdge } from './support/rate-window';
import { postBytes, rawRequest } from './support/raw-request';
import type { UpstreamEcho } from './support/upstream.server';

const MB = 2 ** 20;
const MINUTE = 60_000;

describe('gateway/kong.yml served by the local gateway', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startKongYmlGateway();
  });

  afterAll(() => gateway?.close());

  const routeOf = async (target: string, method = 'GET'): Promise<[string, string]> => {
    const res = await rawRequest(gateway.url, target, { method, localAddress: '127.0.1.1' });
    expect(res.status, `${method} ${target}`).toBe(200);
    const echo = res.json<UpstreamEcho>();
    return [echo.upstream, echo.url];
  };

  it('routes every path of the architecture to its service', async () => {
    expect(await routeOf('/api/products?page=2')).toEqual(['products', '/api/products?page=2']);
    expect(await routeOf('/api/products/slug/glock-19')).toEqual(['products', '/api/products/slug/glock-19']);
    expect(await routeOf('/api/listings/create', 'POST')).toEqual(['products', '/api/listings/create']);
    expect(await routeOf('/api/orders/mine')).toEqual(['orders', '/api/orders/mine']);
    expect(await routeOf('/api/users/profile', 'PUT')).toEqual(['users', '/api/users/profile']);
    expect(await routeOf('/api/users/signin', 'POST')).toEqual(['users', '/api/users/signin']);
    expect(await routeOf('/api/wallet/all-wallets')).toEqual(['wallet', '/api/wallet/all-wallets']);
    expect(await routeOf('/api/data/all-data')).toEqual(['data', '/api/data/all-data']);
    expect(await routeOf('/api/media/abc/photo.png')).toEqual(['media', '/api/media/abc/photo.png']);
    expect(await routeOf('/api/media', 'POST')).toEqual(['media', '/api/media']);
    expect(await routeOf('/')).toEqual(['shell', '/']);
    expect(await routeOf('/remotes.json')).toEqual(['shell', '/remotes.json']);
    expect(await routeOf('/product/glock-19')).toEqual(['shell', '/product/glock-19']);
    expect(await routeOf('/remotes/catalog/mf-manifest.json')).toEqual(['mf-catalog', '/mf-manifest.json']);
    expect(await routeOf('/remotes/checkout/remoteEntry.js')).toEqual(['mf-checkout', '/remoteEntry.js']);
    expect(await routeOf('/remotes/admin/')).toEqual(['mf-admin', '/']);
  });

  it('is strict on sign-in per client address and generous on catalogue reads', async () => {
    await awayFromWindowEdge(MINUTE);
    const ip = '127.0.2.1';
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      statuses.push(
        (await rawRequest(gateway.url, '/api/users/signin', { method: 'POST', localAddress: ip })).status,
      );
    }
    expect(statuses).toEqual([...Array(10).fill(200), 429]);
    // Sign-up has its own allowance, and reads are not affected.
    expect(
      (await rawRequest(gateway.url, '/api/users/signup', { method: 'POST', localAddress: ip })).status,
    ).toBe(200);
    const read = await rawRequest(gateway.url, '/api/products', { localAddress: ip });
    expect(read.headers['x-ratelimit-limit-minute']).toBe('600');
  });

  it('limits password recovery strictly', async () => {
    await awayFromWindowEdge(MINUTE);
    const ip = '127.0.2.2';
    const forgot = await rawRequest(gateway.url, '/api/users/forgot-password', {
      method: 'POST',
      localAddress: ip,
    });
    expect(forgot.headers['x-ratelimit-limit-minute']).toBe('5');
    const reset = await rawRequest(gateway.url, '/api/users/reset-password', {
      method: 'POST',
      localAddress: ip,
    });
    expect(reset.headers['x-ratelimit-limit-minute']).toBe('10');
  });

  it('gives writes the moderate default and front-ends a high limit', async () => {
    const write = await rawRequest(gateway.url, '/api/listings/create', {
      method: 'POST',
      localAddress: '127.0.2.3',
    });
    expect(write.headers['x-ratelimit-limit-minute']).toBe('300');
    const remote = await rawRequest(gateway.url, '/remotes/catalog/remoteEntry.js', {
      localAddress: '127.0.2.3',
    });
    expect(remote.headers['x-ratelimit-limit-minute']).toBe('3000');
  });

  it('accepts a 3 MB image upload on the media route but 1 MB at most elsewhere', async () => {
    const image = await postBytes(gateway.url, '/api/media', 3.5 * MB);
    expect(image.status).toBe(200);
    expect(image.json<UpstreamEcho>().bodyBytes).toBe(3.5 * MB);
    const order = await postBytes(gateway.url, '/api/orders', MB + 1);
    expect(order.status).toBe(413);
    const huge = await postBytes(gateway.url, '/api/media', 4 * MB + 1);
    expect(huge.status).toBe(413);
  });

  it('answers the shell’s preflights, allowing the headers the front-end sends', async () => {
    const res = await rawRequest(gateway.url, '/api/orders', {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:8000',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type,idempotency-key,traceparent',
      },
    });
    expect(res.status).toBe(200);
    expect(String(res.headers['access-control-allow-headers']).toLowerCase().split(',')).toEqual(
      expect.arrayContaining(['authorization', 'content-type', 'idempotency-key', 'traceparent']),
    );
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:8000');
  });

  it('exposes the correlation id and X-Total-Count to the browser', async () => {
    const res = await rawRequest(gateway.url, '/api/products', {
      headers: { origin: 'http://localhost:8000' },
    });
    expect(res.headers['kong-request-id']).toBeDefined();
    expect(String(res.headers['access-control-expose-headers']).split(',')).toEqual(
      expect.arrayContaining(['X-Total-Count', 'Kong-Request-ID']),
    );
  });

  it("hands the service the gateway span's traceparent, in the browser's trace", async () => {
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const res = await rawRequest(gateway.url, '/api/orders/mine', {
      headers: { traceparent: `00-${traceId}-b7ad6b7169203331-01` },
    });
    const sent = String(res.json<UpstreamEcho>().headers.traceparent);
    expect(sent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    expect(sent).not.toContain('b7ad6b7169203331');
  });
});
