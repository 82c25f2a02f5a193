// How the gateway relays a service's answer: intact when large and read slowly by the client, cut
// at the service when the client hangs up, and without the service's connection headers.
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { Agent, type IncomingMessage, request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGatewayOver, type TestGateway } from './support/gateway.fixture';
import { rawRequest } from './support/raw-request';
import { startUpstream } from './support/upstream.server';

const LARGE = randomBytes(4 * 2 ** 20);
const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

const kongYml = `
_format_version: "3.0"
services:
  - name: files
    url: http://files:1
    routes: [{ name: files, paths: [/], strip_path: false }]
`;

describe('relaying answers', () => {
  let gateway: TestGateway;
  let endlessClosed: Promise<boolean>;

  beforeAll(async () => {
    let reportEndless: (finished: boolean) => void = () => undefined;
    endlessClosed = new Promise((resolve) => (reportEndless = resolve));
    const files = await startUpstream('files', (req, res) => {
      req.resume();
      if (req.url === '/large') {
        // Written in 64 KB pieces without Content-Length, so it arrives chunked and in many reads.
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        for (let offset = 0; offset < LARGE.length; offset += 65_536) {
          res.write(LARGE.subarray(offset, offset + 65_536));
        }
        res.end();
      } else if (req.url === '/cached') {
        // A conditional read: 304 without a body when the client already has this version.
        const etag = 'W/"v1"';
        if (req.headers['if-none-match'] === etag) {
          // As Fastify sends it: the Content-Length of what a 200 would have carried.
          res.writeHead(304, {
            etag,
            'cache-control': 'public, max-age=0, must-revalidate',
            'content-length': 2,
          });
          res.end();
        } else {
          res.writeHead(200, { etag, 'content-type': 'application/json', 'content-length': 2 });
          res.end('{}');
        }
      } else if (req.url === '/endless') {
        // An answer that never ends on its own: only the gateway cutting it closes it.
        res.writeHead(200, { 'content-type': 'text/plain' });
        const timer = setInterval(() => res.write('tick\n'), 20);
        res.on('close', () => {
          clearInterval(timer);
          reportEndless(res.writableFinished);
        });
      } else {
        res.writeHead(200, {
          'content-type': 'text/plain',
          connection: 'keep-alive, x-hop',
          'keep-alive': 'timeout=5',
          'x-hop': 'for this connection only',
          'set-cookie': ['a=1', 'b=2'],
        });
        res.end('ok');
      }
    });
    gateway = await startTestGatewayOver({ yaml: kongYml }, [files]);
  });

  afterAll(() => gateway?.close());

  it('relays a large chunked answer intact to a client that reads slowly', async () => {
    const req = request(`${gateway.url}/large`);
    req.end();
    const [res] = (await once(req, 'response')) as [IncomingMessage];
    expect(res.statusCode).toBe(200);
    const parts: Buffer[] = [];
    for await (const part of res) {
      parts.push(part as Buffer);
      // A slow reader: the gateway must hold the service back rather than drop or reorder bytes.
      if (parts.length % 16 === 0) await sleep(5);
    }
    const body = Buffer.concat(parts);
    expect(body.length).toBe(LARGE.length);
    expect(sha256(body)).toBe(sha256(LARGE));
  });

  it('cuts the request to the service when the client hangs up mid-answer', async () => {
    const req = request(`${gateway.url}/endless`);
    req.end();
    const [res] = (await once(req, 'response')) as [IncomingMessage];
    await once(res, 'data');
    req.destroy();
    // The service sees its answer closed before it finished it.
    await expect(endlessClosed).resolves.toBe(false);
  });

  it('relays a 304 to a conditional read, and keeps the connection for the next request', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await rawRequest(gateway.url, '/cached', { agent });
      expect(first.status).toBe(200);
      const etag = first.headers.etag!;
      const again = await rawRequest(gateway.url, '/cached', { agent, headers: { 'if-none-match': etag } });
      expect(again.status).toBe(304);
      expect(again.headers.etag).toBe(etag);
      expect(again.body).toBe('');
      expect((await rawRequest(gateway.url, '/cached', { agent })).status).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  it('drops the service’s connection headers and keeps the others', async () => {
    const res = await rawRequest(gateway.url, '/plain');
    expect(res.body).toBe('ok');
    expect(res.headers['x-hop']).toBeUndefined();
    expect(res.headers['keep-alive']).toBeUndefined();
    // This hop's own connection handling (the test client asks to close), not the service's list.
    expect(res.headers.connection).toBe('close');
    expect(res.headers['set-cookie']).toEqual(['a=1', 'b=2']);
  });
});
