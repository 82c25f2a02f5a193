import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonCall } from './json-call.js';

let server: Server;
let base: string;

beforeAll(async () => {
  // Echoes what it was sent; `/text` answers plain text and `/empty` nothing.
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url === '/empty') return res.writeHead(204).end();
      if (req.url === '/text') return res.writeHead(200, { 'content-type': 'text/plain' }).end('plain');
      res.writeHead(201, { 'content-type': 'application/json; charset=utf-8', 'x-seen': 'yes' });
      res.end(
        JSON.stringify({
          method: req.method,
          headers: req.headers,
          body: Buffer.concat(chunks).toString(),
          from: req.socket.remoteAddress,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('jsonCall', () => {
  it('sends a JSON body with a bearer token and parses the JSON answer', async () => {
    const answer = await jsonCall<{ method: string; headers: Record<string, string>; body: string }>(
      base,
      'PUT',
      '/echo',
      { token: 'abc', body: { name: 'lamp' }, headers: { 'idempotency-key': 'k1' } },
    );
    expect(answer.status).toBe(201);
    expect(answer.headers.get('x-seen')).toBe('yes');
    expect(answer.body.method).toBe('PUT');
    expect(JSON.parse(answer.body.body)).toEqual({ name: 'lamp' });
    expect(answer.body.headers).toMatchObject({
      authorization: 'Bearer abc',
      'content-type': 'application/json',
      'idempotency-key': 'k1',
    });
  });

  it('sends no body or content type without a body', async () => {
    const answer = await jsonCall<{ headers: Record<string, string>; body: string }>(base, 'GET', '/echo');
    expect(answer.body.body).toBe('');
    expect(answer.body.headers['content-type']).toBeUndefined();
    expect(answer.body.headers['authorization']).toBeUndefined();
  });

  it('sends a raw body as it is, as JSON unless the headers say otherwise', async () => {
    type Echo = { headers: Record<string, string>; body: string };
    const malformed = await jsonCall<Echo>(base, 'POST', '/echo', { raw: '{"email": "a@b.co",' });
    expect(malformed.body.body).toBe('{"email": "a@b.co",');
    expect(malformed.body.headers['content-type']).toBe('application/json');
    const form = await jsonCall<Echo>(base, 'POST', '/echo', {
      raw: new TextEncoder().encode('email=a@b.co'),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.body.body).toBe('email=a@b.co');
    expect(form.body.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  it('connects from the local address it is given, as a different client would', async () => {
    const from = async (address?: string) =>
      (await jsonCall<{ from: string }>(base, 'GET', '/echo', { from: address })).body.from;
    expect(await from('127.0.0.7')).toBe('127.0.0.7');
    expect(await from('127.0.0.9')).toBe('127.0.0.9');
    expect(await from()).toBe('127.0.0.1');
  });

  it('answers the text of a non-JSON answer and undefined for an empty one', async () => {
    expect((await jsonCall(base, 'GET', '/text')).body).toBe('plain');
    expect((await jsonCall(base, 'GET', '/echo')).text).toMatch(/^\{"method":"GET"/);
    expect(await jsonCall(base, 'DELETE', '/empty')).toMatchObject({ status: 204, body: undefined });
  });
});
