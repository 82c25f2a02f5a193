import type { ClientProxy } from '@nestjs/microservices';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseServiceConfigSchema } from '../src/config/service-config';
import { requestReply } from '../src/nats/request-reply';
import { connectNatsClient, startServiceApp } from '../testing';
import { capturedLogger } from './captured-logger';
import { TestAppModule } from './test-app.module';

const { logger, lines: logLines } = capturedLogger('things');

let app: NestFastifyApplication;
let base: string;
let client: ClientProxy;

beforeAll(async () => {
  ({ app } = await startServiceApp({
    name: 'things',
    database: 'kit',
    configSchema: baseServiceConfigSchema,
    module: (context) => TestAppModule.register(context),
    env: { BODY_LIMIT_BYTES: '2048' },
    logger,
  }));
  base = await app.getUrl();
  client = await connectNatsClient();
});

afterAll(async () => {
  await client?.close();
  await app?.close();
});

describe('a service started with the kit', () => {
  it('answers liveness and readiness with both dependencies up', async () => {
    expect((await fetch(`${base}/health/live`)).status).toBe(200);
    const ready = await fetch(`${base}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', checks: { mongo: 'up', nats: 'up' } });
  });

  it('logs a refused request once, as JSON carrying the gateway correlation id, and not one that went well', async () => {
    await fetch(`${base}/health/live`, { headers: { 'kong-request-id': 'corr-123#1' } });
    await fetch(`${base}/api/things/not-an-id`, { headers: { 'kong-request-id': 'corr-123#2' } });
    await expect
      .poll(() => logLines.filter((entry) => entry['correlationId'] === 'corr-123#2'))
      .toEqual([
        expect.objectContaining({
          service: 'things',
          level: 'info',
          msg: 'request refused',
          method: 'GET',
          url: '/api/things/not-an-id',
          statusCode: 400,
          responseTime: expect.any(Number),
        }),
      ]);
    // Lines are written in order: the first request's would be there by now.
    expect(logLines.filter((entry) => entry['correlationId'] === 'corr-123#1')).toEqual([]);
  });

  it('answers a malformed id with 400 and a message, not a 500', async () => {
    const response = await fetch(`${base}/api/things/not-an-id`);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: 'Invalid _id' });
  });

  it('compresses JSON answers above 1 KB for a client that accepts it, and leaves small ones alone', async () => {
    const name = 'x'.repeat(1_500);
    const post = (encoding: string) =>
      fetch(`${base}/api/things`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Accept-Encoding': encoding },
        body: JSON.stringify({ name, count: 1 }),
      });

    const brotli = await post('gzip, br');
    expect(brotli.headers.get('content-encoding')).toBe('br');
    expect(brotli.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(await brotli.json()).toEqual({ received: { name, count: 1 } });

    const gzip = await post('gzip');
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(await gzip.json()).toEqual({ received: { name, count: 1 } });

    const plain = await post('identity');
    expect(plain.headers.get('content-encoding')).toBeNull();

    const small = await fetch(`${base}/api/nothing-here`, { headers: { 'Accept-Encoding': 'br' } });
    expect(small.headers.get('content-encoding')).toBeNull();
  });

  it('answers an unknown route with 404 JSON', async () => {
    const response = await fetch(`${base}/api/nothing-here`);
    expect(response.status).toBe(404);
    expect(await response.json()).toHaveProperty('message');
  });

  it('answers malformed JSON with 400', async () => {
    const response = await fetch(`${base}/api/things`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name": ',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: expect.stringMatching(/not valid JSON/) });
  });

  it('answers an oversize body with 413', async () => {
    const response = await fetch(`${base}/api/things`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x'.repeat(4096), count: 1 }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ message: 'Request body is too large' });
  });

  it('drops unknown fields and refuses wrong types with 400', async () => {
    const ok = await fetch(`${base}/api/things`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'a', count: 2, isAdmin: true }),
    });
    expect(await ok.json()).toEqual({ received: { name: 'a', count: 2 } });
    const bad = await fetch(`${base}/api/things`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: { $ne: null }, count: 'many' }),
    });
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { message: string };
    expect(body.message).toMatch(/name must be a string/);
    expect(body.message).toMatch(/count must be an integer/);
  });

  it('answers a throttled request with 429, its message and Retry-After', async () => {
    const response = await fetch(`${base}/api/things/too-many`);
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('42');
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ message: 'Too many things, please wait' });
  });

  it('hides unexpected failures behind a 500 without internals', async () => {
    const response = await fetch(`${base}/api/things/boom`);
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ message: 'Internal server error' });
    expect(text).not.toMatch(/secret internal detail|at /);
  });
});

describe('NATS request/reply', () => {
  it('sends commands with the client natsClientProvider gives the app', async () => {
    const answer = await fetch(`${base}/api/things/echo/hello`);
    expect(await answer.json()).toEqual({ text: 'hello' });
  });

  it('gets an answer from a handler in the service queue group', async () => {
    await expect(requestReply(client, 'things.echo', { text: 'hi' }, 2_000)).resolves.toEqual({ text: 'hi' });
  });

  it('keeps the status of a refusal', async () => {
    await expect(requestReply(client, 'things.refuse', {}, 2_000)).rejects.toMatchObject({
      status: 409,
      message: 'Sorry. Product is out of stock',
    });
  });

  // Both assert which ended the wait, not how long it took (a latency goal belongs in bench/): the
  // message tells the timeout's 503 from NATS's "no responders", and the slow handler's answer from either.
  it('answers 503 at the timeout, before a handler slower than it answers', async () => {
    // things.slow answers after 2 s: without the 300 ms timeout the call would resolve with 'late'.
    await expect(requestReply(client, 'things.slow', {}, 300)).rejects.toMatchObject({
      status: 503,
      message: 'The things service did not answer in time, please try again',
    });
  });

  it('answers 503 as soon as NATS says nobody serves the subject, without waiting for the timeout', async () => {
    await expect(requestReply(client, 'nobody.home', {}, 2_000)).rejects.toMatchObject({
      status: 503,
      message: 'The nobody service is unavailable, please try again',
    });
  });
});
