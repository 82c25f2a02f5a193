import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, startTestGatewayOver, type TestGateway } from './support/gateway.fixture';
import { rawRequest } from './support/raw-request';
import { startUpstream, type TestUpstream, type UpstreamEcho } from './support/upstream.server';

const KONG_YML = `
_format_version: "3.0"
services:
  - name: api
    url: http://api:3001
    routes:
      - name: api-all
        paths: [/api]
        strip_path: false
      - name: api-users
        paths: [/api/users]
        strip_path: false
      - name: api-signin
        paths: [/api/users/signin]
        methods: [POST]
        strip_path: false
  - name: static
    url: http://static:4000
    routes:
      - name: site
        paths: [/]
        strip_path: false
  - name: remote
    url: http://remote:4001
    routes:
      - name: remote
        paths: [/remotes/catalog]
        strip_path: true
  - name: based
    url: http://based:4002/v2
    routes:
      - name: based
        paths: [/based]
        strip_path: true
        preserve_host: true
`;

describe('routing', () => {
  let upstreams: TestUpstream[];
  let gateway: TestGateway;

  beforeAll(async () => {
    upstreams = await Promise.all(['api', 'static', 'remote', 'based'].map((name) => startUpstream(name)));
    gateway = await startTestGatewayOver({ yaml: KONG_YML }, upstreams);
  });

  afterAll(() => gateway?.close());

  const send = async (target: string, method = 'GET'): Promise<UpstreamEcho> => {
    const res = await rawRequest(gateway.url, target, { method });
    expect(res.status).toBe(200);
    return res.json<UpstreamEcho>();
  };
  /** The service a request reached and the URL it was sent there with. */
  const routeOf = async (target: string, method = 'GET'): Promise<[string, string]> => {
    const { upstream, url } = await send(target, method);
    return [upstream, url];
  };

  it('sends each path prefix to its service, keeping the full path when strip_path is false', async () => {
    expect(await routeOf('/api/products/1?x=1&y=%20')).toEqual(['api', '/api/products/1?x=1&y=%20']);
    expect(await routeOf('/index.html')).toEqual(['static', '/index.html']);
    expect(await routeOf('/')).toEqual(['static', '/']);
  });

  it('strips the matched prefix when strip_path is true', async () => {
    expect(await routeOf('/remotes/catalog/mf-manifest.json')).toEqual(['remote', '/mf-manifest.json']);
    expect(await routeOf('/remotes/catalog/')).toEqual(['remote', '/']);
    expect(await routeOf('/remotes/catalog')).toEqual(['remote', '/']);
  });

  it('joins the rest of the path onto a service path', async () => {
    expect(await routeOf('/based/items?q=1')).toEqual(['based', '/v2/items?q=1']);
  });

  it('picks the longest prefix, and a paths+methods route before a paths-only one', async () => {
    const signin = await send('/api/users/signin', 'POST');
    const usersGet = await send('/api/users/signin', 'GET');
    expect(signin.upstream).toBe('api');
    expect(usersGet.upstream).toBe('api');
    const lines = gateway.lines.filter((line) => line.msg === 'request' && line.path === '/api/users/signin');
    expect(lines.map((line) => [line.method, line.route])).toEqual([
      ['POST', 'api-signin'],
      ['GET', 'api-users'],
    ]);
  });

  it('matches on the normalised path, so dot segments and encodings cannot dodge a route', async () => {
    const before = gateway.lines.length;
    for (const target of [
      '/api/users/x/../signin',
      '/api//users/sign%69n',
      '/api/./users/%2e%2e/users/signin',
    ]) {
      expect(await routeOf(target, 'POST')).toEqual(['api', '/api/users/signin']);
    }
    const routes = gateway.lines
      .slice(before)
      .filter((line) => line.msg === 'request')
      .map((line) => line.route);
    expect(routes).toEqual(['api-signin', 'api-signin', 'api-signin']);
  });

  it('forwards the normalised path re-escaped, keeping reserved encodings', async () => {
    expect((await send('/api/a%20b/c%2Fd/%C3%A9')).url).toBe('/api/a%20b/c%2Fd/%C3%A9');
  });

  it('sets Host to the service unless preserve_host is on', async () => {
    expect((await send('/api/x')).headers.host).toBe('api:3001');
    const res = await rawRequest(gateway.url, '/based/x', { headers: { host: 'shop.example:8000' } });
    expect(res.json<UpstreamEcho>().headers.host).toBe('shop.example:8000');
  });

  it('answers 404 with Kong’s JSON message when no route matches', async () => {
    const onlyApi = await startTestGateway(
      {
        yaml: '_format_version: "3.0"\nservices:\n  - name: api\n    url: http://api:3001\n    routes:\n      - name: a\n        paths: [/api]\n',
      },
      { api: upstreams[0]!.address },
    );
    try {
      const res = await rawRequest(onlyApi.url, '/nope');
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ message: 'no Route matched with those values' });
    } finally {
      await onlyApi.close();
    }
  });

  it('answers 404 when the route exists only for other methods', async () => {
    const postOnly = await startTestGateway(
      {
        yaml: '_format_version: "3.0"\nservices:\n  - name: api\n    url: http://api:3001\n    routes:\n      - name: a\n        paths: [/api]\n        methods: [POST]\n',
      },
      { api: upstreams[0]!.address },
    );
    try {
      expect((await rawRequest(postOnly.url, '/api', { method: 'GET' })).status).toBe(404);
      expect((await rawRequest(postOnly.url, '/api', { method: 'POST' })).status).toBe(200);
    } finally {
      await postOnly.close();
    }
  });

  it('logs one JSON line per request with correlation, route, upstream, status and duration', async () => {
    const before = gateway.lines.length;
    await send('/api/log-me');
    const line = gateway.lines.slice(before).find((entry) => entry.msg === 'request');
    expect(line).toMatchObject({
      method: 'GET',
      path: '/api/log-me',
      status: 200,
      route: 'api-all',
      upstream: expect.stringMatching(/^api 127\.0\.0\.1:\d+$/),
      durationMs: expect.any(Number),
      clientIp: '127.0.0.1',
    });
  });
});
