// A body over the limit must be answered, not cut: every client, however many send at once and
// however far into its body it is, reads the gateway's 413 and its JSON message, with no EPIPE or
// ECONNRESET. The gateway reads the refused body away before it closes (nginx's lingering close).
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINGERING_CLOSE } from '../src/proxy/lingering-drain';
import { startTestGatewayOver, type TestGateway } from './support/gateway.fixture';
import { rawRequest } from './support/raw-request';
import { startUpstream, type TestUpstream } from './support/upstream.server';

const MB = 2 ** 20;
const CLIENTS = 20;

const kongYml = `
_format_version: "3.0"
services:
  - name: users
    url: http://users:3003
    plugins:
      - name: request-size-limiting
        config: { allowed_payload_size: 16, size_unit: kilobytes }
    routes: [{ name: users, paths: [/api/users], strip_path: false }]
`;

/** What one raw client saw: the answer it read (status and body), and any socket error. */
interface Outcome {
  status?: number;
  body?: string;
  error?: string;
  /** Body bytes the client managed to write before the connection ended. */
  sent: number;
}

interface SendOptions {
  /** Bytes of body to send. */
  size: number;
  /** Declared Content-Length (default `size`); `chunked` sends Transfer-Encoding: chunked instead. */
  declared?: number | 'chunked';
  /** Stop writing after this many bytes and wait (a client that stalls). */
  stallAfter?: number;
}

/**
 * One client on a raw socket: writes the headers and the body as fast as the socket takes it, while
 * reading whatever comes back, as curl and browsers do; resolves once the connection has ended.
 */
function send(baseUrl: string, options: SendOptions): Promise<Outcome> {
  const { port } = new URL(baseUrl);
  const declared = options.declared ?? options.size;
  const head =
    'POST /api/users/signin HTTP/1.1\r\nHost: shop.test\r\nContent-Type: application/json\r\n' +
    (declared === 'chunked' ? 'Transfer-Encoding: chunked\r\n' : `Content-Length: ${declared}\r\n`) +
    '\r\n';
  const piece = Buffer.alloc(64 * 1024, 0x61);
  return new Promise((resolve) => {
    const outcome: Outcome = { sent: 0 };
    const received: Buffer[] = [];
    const socket = connect(Number(port), '127.0.0.1');
    const writeMore = (): void => {
      const limit = Math.min(options.size, options.stallAfter ?? Infinity);
      while (outcome.sent < limit && !socket.destroyed) {
        const bytes = piece.subarray(0, Math.min(piece.length, limit - outcome.sent));
        outcome.sent += bytes.length;
        const framed =
          declared === 'chunked'
            ? Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')])
            : bytes;
        if (!socket.write(framed)) {
          socket.once('drain', writeMore);
          return;
        }
      }
      if (outcome.sent >= options.size && declared === 'chunked') socket.write('0\r\n\r\n');
    };
    socket.on('connect', () => {
      socket.write(head);
      writeMore();
    });
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      outcome.error ??= error.code ?? error.message;
    });
    socket.on('close', () => {
      const text = Buffer.concat(received).toString('latin1');
      const match = /^HTTP\/1\.1 (\d{3}) [^\r]*\r\n([\s\S]*?)\r\n\r\n([\s\S]*)$/.exec(text);
      if (match) {
        outcome.status = Number(match[1]);
        const length = /content-length: (\d+)/i.exec(match[2]!);
        outcome.body = length ? match[3]!.slice(0, Number(length[1])) : match[3];
      }
      resolve(outcome);
    });
  });
}

describe('bodies over the limit', () => {
  let users: TestUpstream;
  let gateway: TestGateway;

  beforeAll(async () => {
    users = await startUpstream('users');
    gateway = await startTestGatewayOver({ yaml: kongYml }, [users]);
  });

  afterAll(() => gateway?.close());

  const refused = { status: 413, body: JSON.stringify({ message: 'Request size limit exceeded' }) };

  it(`answers 413 to each of ${CLIENTS} clients sending 10 MB at once, with Content-Length, and none is reset`, async () => {
    const before = users.seen.length;
    const outcomes = await Promise.all(
      Array.from({ length: CLIENTS }, () => send(gateway.url, { size: 10 * MB })),
    );
    expect(outcomes.map(({ status, body, error }) => ({ status, body, error }))).toEqual(
      Array.from({ length: CLIENTS }, () => ({ ...refused, error: undefined })),
    );
    // Each was read to its end, so none was cut while sending.
    expect(outcomes.every((outcome) => outcome.sent === 10 * MB)).toBe(true);
    expect(users.seen.length).toBe(before);
  }, 60_000);

  it(`answers 413 to each of ${CLIENTS} clients sending 10 MB at once, chunked, and none is reset`, async () => {
    const outcomes = await Promise.all(
      Array.from({ length: CLIENTS }, () => send(gateway.url, { size: 10 * MB, declared: 'chunked' })),
    );
    expect(outcomes.map(({ status, body, error }) => ({ status, body, error }))).toEqual(
      Array.from({ length: CLIENTS }, () => ({ ...refused, error: undefined })),
    );
  }, 60_000);

  it('stops reading once a client has sent more than it may reasonably drain, after answering 413', async () => {
    const outcome = await send(gateway.url, { size: 200 * MB, declared: 2 ** 40 });
    expect(outcome).toMatchObject(refused);
    // The gateway reads away more than LINGERING_CLOSE.maxBytes before it stops (it stops on the
    // piece that crosses the cap), and every byte it read the client had written: the floor. It then
    // closes although the declared body goes on, so the client never gets its 200 MB out: the ceiling.
    expect(outcome.sent).toBeGreaterThan(LINGERING_CLOSE.maxBytes);
    expect(outcome.sent).toBeLessThan(200 * MB);
  }, 60_000);

  it(
    'closes the connection of a client that stops sending, once it waited idleMs for more, after answering 413',
    async () => {
      const started = performance.now();
      const outcome = await send(gateway.url, { size: 10 * MB, stallAfter: MB });
      const elapsed = performance.now() - started;
      expect(outcome).toMatchObject(refused);
      expect(outcome.error).toBeUndefined();
      // Both bounds come from the gateway's drain (src/proxy/lingering-drain.ts), not from how fast this
      // machine is. Floor: drainRequest closes when its idle timer, restarted by every piece it reads
      // (all read after `started`), has run LINGERING_CLOSE.idleMs; Node's timers count whole
      // milliseconds, hence the 1 ms. Ceiling: its other timer, LINGERING_CLOSE.maxMs from the start
      // of the drain, cannot have fired before maxMs, so a close earlier than that was the idle wait's.
      expect(elapsed).toBeGreaterThanOrEqual(LINGERING_CLOSE.idleMs - 1);
      expect(elapsed).toBeLessThan(LINGERING_CLOSE.maxMs);
      // The hang guard: past maxMs (the drain's own deadline) and then some, so that a missing idle
      // close fails the ceiling above rather than the test's time.
    },
    2 * LINGERING_CLOSE.maxMs,
  );

  it('still serves requests on the same gateway afterwards', async () => {
    const res = await rawRequest(gateway.url, '/api/users/signin', { method: 'POST', body: '{}' });
    expect(res.status).toBe(200);
  });
});
