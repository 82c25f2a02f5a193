// What the client gets when the service fails: Kong's statuses and messages, as JSON.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, startTestGatewayOver, type TestGateway } from './support/gateway.fixture';
import { rawRequest } from './support/raw-request';
import { downService, startUpstream } from './support/upstream.server';

const kongYml = (down: string): string => `
_format_version: "3.0"
services:
  - name: slow
    url: http://slow:3008
    read_timeout: 300
    # A read timeout of a GET is tried again (Kong's default is 5 more times; one keeps the test short).
    retries: 1
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
${down}  - name: nowhere
    url: http://no-such-host.invalid:3010
    routes:
      - name: nowhere
        paths: [/nowhere]
        strip_path: false
`;

describe('a failing service', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    const slow = await startUpstream('slow', (_req, res) => {
      setTimeout(() => res.end('late'), 2_000).unref();
    });
    const rude = await startUpstream('rude', (req) => req.socket.destroy());
    const down = await downService();
    gateway = await startTestGatewayOver({ yaml: kongYml(down.yaml) }, [slow, rude], down.hosts);
  });

  afterAll(() => gateway?.close());

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
      const accessLine = () => gateway.lines.find((line) => line.msg === 'request' && line.path === '/slow');
      await expect.poll(accessLine).toBeDefined();
      expect(accessLine()!.tries).toBe(2);
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
