import { randomUUID } from 'node:crypto';
import type { ClientProxy } from '@nestjs/microservices';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { EVENTS_STREAM, type EventEnvelope } from '@shop/contracts';
import { mongoUrlFor, uniqueDbName, until } from '@shop/testing';
import mongoose, { type Connection } from 'mongoose';
import { connect, JSONCodec, type NatsConnection, type Subscription } from 'nats';
import pino from 'pino';
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { baseServiceConfigSchema } from '../src/config/service-config';
import { JetStreamEvents } from '../src/events/jetstream-events';
import { OutboxRelay } from '../src/outbox/outbox-relay';
import { requestReply } from '../src/nats/request-reply';
import { connectNatsClient, publishRawEvent, startServiceApp } from '../testing';
import { TestAppModule, type Thing, thingSchema } from './test-app.module';

/*
 * Parts deployed at different times: what a build from before schema versions (commit cf99fb5)
 * sends must work with this one. The "previous" shapes below are what that build's `newEvent`,
 * `outboxPush` and NestJS NATS client put on the wire; the "future" ones add fields this build does
 * not know, as a later build may.
 */

const logger = pino({ level: 'silent' });
const codec = JSONCodec<unknown>();
let nats: NatsConnection;
let db: Connection;
let events: JetStreamEvents;
let app: NestFastifyApplication;
let client: ClientProxy;

/** An envelope as cf99fb5's `newEvent` built it: no schema version. */
const previousEvent = (type: string, data: unknown) => ({
  id: randomUUID(),
  type,
  occurredAt: new Date().toISOString(),
  data,
});

/** Answers a command like a NestJS responder of an earlier or later build, with a recorded reply. */
/** Answers `pattern` with `reply`; resolves once the server knows the subscription (no "no responders"). */
async function replayResponder(pattern: string, reply: unknown): Promise<Subscription> {
  const subscription = nats.subscribe(pattern);
  void (async () => {
    for await (const message of subscription) {
      const packet = codec.decode(message.data) as { id: string };
      message.respond(codec.encode({ id: packet.id, response: reply, isDisposed: true }));
    }
  })();
  await nats.flush();
  return subscription;
}

/** Sends a command as cf99fb5's callers did: the NestJS client, no schema version. */
const sendAsPrevious = (pattern: string, payload: unknown) => firstValueFrom(client.send(pattern, payload));

beforeAll(async () => {
  nats = await connect({ servers: inject('natsUrl') });
  db = await mongoose.createConnection(mongoUrlFor(inject('mongoUrl'), uniqueDbName('compat'))).asPromise();
  events = new JetStreamEvents(nats, logger);
  await events.ensureStream();
  ({ app } = await startServiceApp({
    name: 'things',
    database: 'compat-kit',
    configSchema: baseServiceConfigSchema,
    module: (context) => TestAppModule.register(context),
    logger,
  }));
  client = await connectNatsClient();
});

afterAll(async () => {
  await client?.close();
  await app?.close();
  await nats?.drain();
  await db?.close();
});

describe('events of another build', () => {
  it('hands an event of the previous shape to the handler as version 1, once', async () => {
    const type = `test.compat.previous.${Date.now()}`;
    const seen: EventEnvelope[] = [];
    const consumer = await events.consume(uniqueDbName('compat-previous'), [type], async (event) => {
      seen.push(event);
    });
    const event = previousEvent(type, { thingId: 'a1', count: 2 });
    await publishRawEvent(nats, event);
    await publishRawEvent(nats, event);
    const later = previousEvent(type, { thingId: 'a2', count: 3 });
    await publishRawEvent(nats, later);
    await until(() => seen.length >= 2);
    await consumer.stop();
    expect(seen).toEqual([
      { ...event, schemaVersion: 1 },
      { ...later, schemaVersion: 1 },
    ]);
  });

  it('leaves envelope fields it does not know out and passes data as sent', async () => {
    const type = `test.compat.future.${Date.now()}`;
    const seen: EventEnvelope[] = [];
    const consumer = await events.consume(uniqueDbName('compat-future'), [type], async (event) => {
      seen.push(event);
    });
    const event = {
      ...previousEvent(type, { thingId: 'b1', colour: 'teal' }),
      schemaVersion: 1,
      traceId: 'from-a-later-build',
    };
    await publishRawEvent(nats, event);
    await until(() => seen.length === 1);
    await consumer.stop();
    const { traceId: _unknown, ...known } = event;
    expect(seen).toEqual([known]);
  });

  it('leaves an event of a newer schema version unacknowledged for an upgraded consumer', async () => {
    const type = `test.compat.newer.${Date.now()}`;
    const durable = uniqueDbName('compat-newer');
    const seen: unknown[] = [];
    const consumer = await events.consume(durable, [type], async (event) => {
      seen.push(event.data);
    });
    const newerSeq = await publishRawEvent(nats, { ...previousEvent(type, 'v2'), schemaVersion: 2 });
    await publishRawEvent(nats, previousEvent(type, 'v1'));
    // Deliveries are handled in stream order: once the later event is in, the newer one was seen.
    await until(() => seen.length === 1);
    const info = await (await nats.jetstreamManager()).consumers.info(EVENTS_STREAM, durable);
    await consumer.stop();
    expect(seen).toEqual(['v1']);
    expect(info.num_ack_pending).toBe(1);
    expect(info.ack_floor.stream_seq).toBeLessThan(newerSeq);
    await (await nats.jetstreamManager()).streams.deleteMessage(EVENTS_STREAM, newerSeq);
  });

  it('publishes an outbox entry queued by the previous build as version 1', async () => {
    const Things = db.model<Thing>('Thing', thingSchema);
    const type = `test.compat.outbox.${Date.now()}`;
    const thing = await Things.create({ name: 'legacy', count: 1 });
    const entry = previousEvent(type, { thingId: String(thing._id) });
    // An entry queued before the upgrade, as `outboxPush` wrote it before schema versions existed: no
    // schemaVersion. The new build's relay must still publish it, as version 1
    // (docs/decisions/0013-event-compatibility.md).
    await Things.collection.updateOne({ _id: thing._id }, { $push: { outbox: entry } as never });
    const published: EventEnvelope[] = [];
    const relay = new OutboxRelay({
      models: [Things],
      logger,
      publisher: { publish: async (event) => void published.push(event) },
    });
    expect(await relay.pass()).toBe(1);
    expect(published).toEqual([{ ...entry, schemaVersion: 1 }]);
  });
});

describe('commands of another build', () => {
  it('answers a request without a version as version 1, in version 1', async () => {
    await expect(sendAsPrevious('things.echo', { text: 'hi' })).resolves.toEqual({
      text: 'hi',
      schemaVersion: 1,
    });
  });

  it('answers a request with fields it does not know', async () => {
    await expect(
      sendAsPrevious('things.echo', { text: 'hi', schemaVersion: 1, priority: 'high' }),
    ).resolves.toEqual({ text: 'hi', schemaVersion: 1 });
  });

  it('refuses a request of a newer version with a 503 the caller retries, and a bad version with a 400', async () => {
    await expect(sendAsPrevious('things.echo', { text: 'hi', schemaVersion: 2 })).rejects.toEqual({
      status: 503,
      message: 'things.echo version 2 is not known here yet',
    });
    await expect(sendAsPrevious('things.echo', { text: 'hi', schemaVersion: 'two' })).rejects.toEqual({
      status: 400,
      message: 'schemaVersion must be a positive whole number',
    });
  });

  it('sends its version and reads a reply of the previous shape, or with unknown fields', async () => {
    const pattern = `replay${Date.now()}.echo`;
    const requests: unknown[] = [];
    const previous = await replayResponder(pattern, { text: 'old' });
    const tap = nats.subscribe(pattern);
    void (async () => {
      for await (const message of tap) requests.push((codec.decode(message.data) as { data: unknown }).data);
    })();
    await nats.flush();
    await expect(requestReply(client, pattern, { text: 'hi' }, 2_000)).resolves.toEqual({ text: 'old' });
    await until(() => requests.length === 1);
    expect(requests).toEqual([{ text: 'hi', schemaVersion: 1 }]);
    previous.unsubscribe();

    const future = await replayResponder(pattern, { text: 'new', schemaVersion: 1, mood: 'cheerful' });
    await expect(requestReply(client, pattern, { text: 'hi' }, 2_000)).resolves.toEqual({
      text: 'new',
      mood: 'cheerful',
    });
    future.unsubscribe();
    tap.unsubscribe();
  });

  it('treats a reply of a newer version like no answer', async () => {
    const pattern = `newer${Date.now()}.echo`;
    const newer = await replayResponder(pattern, { text: 'v2', schemaVersion: 2 });
    await expect(requestReply(client, pattern, { text: 'hi' }, 2_000)).rejects.toMatchObject({
      status: 503,
      message: `The ${pattern.split('.')[0]} service gave an answer of a newer version, please try again`,
    });
    newer.unsubscribe();
  });
});
