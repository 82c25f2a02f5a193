// request-size-limiting: bodies over the limit refused before or while they arrive, never buffered.
import { once } from 'node:events';
import { type IncomingMessage, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from './support/gateway.fixture';
import { startPluginsGateway } from './support/plugins-gateway';
import { postBytes, postChunked, rawRequest } from './support/raw-request';
import type { TestUpstream, UpstreamEcho } from './support/upstream.server';

const KB = 1024;

describe('request bodies', () => {
  let gateway: TestGateway;
  let api: TestUpstream;
  let firstStreamChunk: Promise<void>;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ gateway, api, firstStreamChunk, close } = await startPluginsGateway());
  });
  afterAll(() => close?.());

  describe('request-size-limiting', () => {
    it('answers 413 when Content-Length is over the limit, without calling the service', async () => {
      const before = api.seen.length;
      const res = await postBytes(gateway.url, '/api/orders', KB + 1);
      expect(res.status).toBe(413);
      expect(res.json()).toEqual({ message: 'Request size limit exceeded' });
      expect(api.seen.length).toBe(before);
      const exact = await postBytes(gateway.url, '/api/orders', KB);
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
      const res = await postChunked(
        gateway.url,
        '/api/orders',
        Array.from({ length: 48 }, () => 64 * KB),
      );
      expect(res.status).toBe(413);
      expect(res.json()).toEqual({ message: 'Request size limit exceeded' });
    });

    it('counts streamed (chunked) bodies and answers 413 once they pass the limit', async () => {
      const before = api.seen.length;
      const res = await postChunked(gateway.url, '/api/orders', [600, 600, 600]);
      expect(res.status).toBe(413);
      expect(res.json()).toEqual({ message: 'Request size limit exceeded' });
      expect(res.headers['kong-request-id']).toBeDefined();
      // The service never sees a complete request: its copy was cut off.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(api.seen.slice(before).filter((echo) => echo.url === '/api/orders')).toEqual([]);

      const small = await postChunked(gateway.url, '/api/orders', [500, 500]);
      expect(small.json<UpstreamEcho>().bodyBytes).toBe(1000);
    });

    it('lets the media route take larger bodies than the global limit', async () => {
      const withLength = await postBytes(gateway.url, '/api/media', 3 * KB);
      expect(withLength.status).toBe(200);
      expect(withLength.json<UpstreamEcho>().bodyBytes).toBe(3 * KB);
      const chunked = await postChunked(gateway.url, '/api/media', [2 * KB, KB]);
      expect(chunked.json<UpstreamEcho>().bodyBytes).toBe(3 * KB);
      const tooBig = await postBytes(gateway.url, '/api/media', 5 * KB);
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
});
