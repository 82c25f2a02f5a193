import { EVENTS_MAX_AGE_DAYS, EVENTS_STREAM, type EventEnvelope } from '@shop/contracts';
import { mongoUrlFor, uniqueDbName, until } from '@shop/testing';
import mongoose, { type Connection } from 'mongoose';
import { connect, type NatsConnection, nanos } from 'nats';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { JetStreamEvents } from '../src/events/jetstream-events';
import { newEvent } from '../src/events/new-event';
import { ProcessedEvents } from '../src/events/processed-events';
import { OutboxRelay } from '../src/outbox/outbox-relay';
import { outboxPush } from '../src/outbox/outbox.schema';
import { type Thing, thingSchema } from './test-app.module';

const logger = pino({ level: 'silent' });
let nats: NatsConnection;
let db: Connection;
let events: JetStreamEvents;

beforeAll(async () => {
  nats = await connect({ servers: inject('natsUrl') });
  db = await mongoose.createConnection(mongoUrlFor(inject('mongoUrl'), uniqueDbName('events'))).asPromise();
  events = new JetStreamEvents(nats, logger);
  await events.ensureStream();
});

afterAll(async () => {
  await nats?.drain();
  await db?.close();
});

describe('JetStream events', () => {
  it('keeps events for EVENTS_MAX_AGE_DAYS, and gives a stream created without a limit that limit', async () => {
    const jsm = await nats.jetstreamManager();
    const maxAge = nanos(EVENTS_MAX_AGE_DAYS * 86_400_000);
    expect((await jsm.streams.info(EVENTS_STREAM)).config.max_age).toBe(maxAge);
    const before = await jsm.streams.info(EVENTS_STREAM);
    await jsm.streams.update(EVENTS_STREAM, { ...before.config, max_age: 0 });
    await events.ensureStream();
    const after = await jsm.streams.info(EVENTS_STREAM);
    expect(after.config.max_age).toBe(maxAge);
    expect(after.state.messages).toBeGreaterThanOrEqual(before.state.messages);
  });

  it('drops a republished event with the same id', async () => {
    const type = `test.dedupe.${Date.now()}`;
    const seen: string[] = [];
    const consumer = await events.consume(uniqueDbName('dedupe'), [type], async (event) => {
      seen.push(event.id);
    });
    const event = newEvent(type, { n: 1 });
    await events.publish(event);
    await events.publish(event);
    await events.publish(newEvent(type, { n: 2 }));
    await until(() => seen.length >= 2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await consumer.stop();
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBe(event.id);
  });

  it('lets a durable consumer catch up on what was published while it was down', async () => {
    const type = `test.catchup.${Date.now()}`;
    const durable = uniqueDbName('catchup');
    const seen: unknown[] = [];
    const first = await events.consume(durable, [type], async (event) => {
      seen.push(event.data);
    });
    await events.publish(newEvent(type, 'before'));
    await until(() => seen.length === 1);
    await first.stop();
    await events.publish(newEvent(type, 'while-down'));
    const second = await events.consume(durable, [type], async (event) => {
      seen.push(event.data);
    });
    await until(() => seen.length === 2);
    await second.stop();
    expect(seen).toEqual(['before', 'while-down']);
  });

  it('redelivers an event whose handler failed', async () => {
    const type = `test.retry.${Date.now()}`;
    let attempts = 0;
    const consumer = await events.consume(uniqueDbName('retry'), [type], async () => {
      attempts += 1;
      if (attempts === 1) throw new Error('transient');
    });
    await events.publish(newEvent(type, {}));
    await until(() => attempts === 2);
    await consumer.stop();
    expect(attempts).toBe(2);
  });

  it('tells how far a consumer is behind: what waits, and how long the oldest of it has been in the stream', async () => {
    const stamp = Date.now();
    const [first, second, other] = ['first', 'second', 'other'].map((name) => `test.lag.${name}.${stamp}`);
    const durable = uniqueDbName('lag');
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const handled: string[] = [];
    const consumer = await events.consume(durable, [first!, second!], async (event) => {
      if (event.type === first) await released;
      handled.push(event.type);
    });
    expect(await events.consumerLag(durable)).toEqual({ pending: 0, ackPending: 0, oldestAgeSeconds: 0 });

    // An event of a subject the consumer does not take, older than the rest; then one it takes and holds,
    // then another it takes.
    await events.publish(newEvent(other!, {}));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const publishedAt = Date.now();
    await events.publish(newEvent(first!, {}));
    await events.publish(newEvent(second!, {}));
    const start = Date.now();
    await until(async () => (await events.consumerLag(durable)).ackPending === 2);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const before = Date.now();
    const lag = await events.consumerLag(durable);
    const after = Date.now();
    expect(lag).toMatchObject({ pending: 0, ackPending: 2 });
    // The held event's age, by the order of things alone: it was in the stream before `start` and not
    // before `publishedAt`, and its age was taken between `before` and `after` (5 ms for the clocks' grain).
    expect(lag.oldestAgeSeconds, 'at least as old as the held event').toBeGreaterThanOrEqual(
      (before - start - 5) / 1_000,
    );
    expect(
      lag.oldestAgeSeconds,
      'no older than the held event (not an event of another subject)',
    ).toBeLessThanOrEqual((after - publishedAt + 5) / 1_000);

    release();
    await until(() => handled.length === 2);
    await until(async () => (await events.consumerLag(durable)).ackPending === 0);
    expect(await events.consumerLag(durable)).toEqual({ pending: 0, ackPending: 0, oldestAgeSeconds: 0 });
    await consumer.stop();
    expect(handled).toEqual([first, second]);
  });

  it('runs a handler once per event and consumer however often it is delivered', async () => {
    const processed = new ProcessedEvents(db);
    const event = newEvent('test.once', {});
    let runs = 0;
    const work = async () => {
      runs += 1;
    };
    expect(await processed.handleOnce('orders', event.id, work)).toBe(true);
    expect(await processed.handleOnce('orders', event.id, work)).toBe(false);
    expect(await processed.handleOnce('users', event.id, work)).toBe(true);
    expect(runs).toBe(2);
  });
});

describe('outbox relay', () => {
  it('publishes queued events, clears them only after the broker accepted, and retries failures', async () => {
    const Things = db.model<Thing>('Thing', thingSchema);
    const type = `test.outbox.${Date.now()}`;
    const thing = await Things.create({ name: 'widget', count: 1 });
    const event = newEvent(type, { thingId: String(thing._id) });
    await Things.updateOne({ _id: thing._id }, { $set: { count: 2 }, ...outboxPush(event) });

    const published: EventEnvelope[] = [];
    let brokerUp = false;
    const relay = new OutboxRelay({
      models: [Things],
      logger,
      publisher: {
        publish: async (e) => {
          if (!brokerUp) throw new Error('broker down');
          published.push(e);
          await events.publish(e);
        },
      },
    });

    await expect(relay.pass()).rejects.toThrow('broker down');
    const stillQueued = await Things.findById(thing._id).select('+outbox').lean();
    expect(stillQueued?.count).toBe(2);
    expect((stillQueued as unknown as { outbox: unknown[] }).outbox).toHaveLength(1);

    brokerUp = true;
    expect(await relay.pass()).toBe(1);
    expect(published.map((e) => e.id)).toEqual([event.id]);
    const cleared = await Things.findById(thing._id).select('+outbox').lean();
    expect((cleared as unknown as { outbox: unknown[] }).outbox).toHaveLength(0);
    expect(await relay.pass()).toBe(0);
  });

  it('keeps the outbox out of ordinary reads', async () => {
    const Things = db.model<Thing>('Thing', thingSchema);
    const thing = await Things.create({ name: 'quiet', count: 0 });
    await Things.updateOne({ _id: thing._id }, outboxPush(newEvent('test.hidden', {})));
    const plain = await Things.findById(thing._id).lean();
    expect(plain).not.toHaveProperty('outbox');
  });
});

describe('outbox relay, by the documents just written', () => {
  it('publishes only the named documents, each in order, and leaves the rest to a sweep', async () => {
    // A database of its own: a sweep must find only this test's documents.
    const Things = db.useDb(uniqueDbName('relay')).model<Thing>('Thing', thingSchema);
    const type = `test.relay.${Date.now()}`;
    const queue = async (name: string, count: number) => {
      const thing = await Things.create({ name, count: 0 });
      const queued = Array.from({ length: count }, (_, n) => newEvent(type, { name, n }));
      for (const event of queued) await Things.updateOne({ _id: thing._id }, outboxPush(event));
      return { id: thing._id, events: queued };
    };
    const first = await queue('first', 3);
    const second = await queue('second', 1);
    const untouched = await queue('untouched', 1);

    const published: EventEnvelope[] = [];
    const relay = new OutboxRelay({
      models: [Things],
      logger,
      publisher: {
        publish: async (event) => {
          published.push(event);
          await events.publish(event);
        },
      },
    });

    expect(await relay.pass([first.id, second.id])).toBe(4);
    const ids = published.map((event) => event.id);
    // Each queued event once: sorted lists, not sets, so an event published twice shows.
    expect([...ids].sort()).toEqual([...first.events, ...second.events].map((event) => event.id).sort());
    // One document's events keep the order they were queued in.
    expect(ids.filter((id) => first.events.some((event) => event.id === id))).toEqual(
      first.events.map((event) => event.id),
    );
    const outboxOf = async (id: unknown) =>
      ((await Things.findById(id).select('+outbox').lean()) as unknown as { outbox: unknown[] }).outbox;
    expect(await outboxOf(first.id)).toHaveLength(0);
    expect(await outboxOf(second.id)).toHaveLength(0);
    expect(await outboxOf(untouched.id)).toHaveLength(1);

    expect(await relay.pass()).toBe(1);
    expect(published.at(-1)?.id).toBe(untouched.events[0]!.id);
    expect(await outboxOf(untouched.id)).toHaveLength(0);
  });
});

describe('outbox relay under steady nudging', () => {
  it('follows a busy pass with the documents nudged meanwhile, not with a sweep of the collection', async () => {
    // A database of its own: a sweep must find only this test's documents.
    const Things = db.useDb(uniqueDbName('relay')).model<Thing>('Thing', thingSchema);
    const type = `test.relay.busy.${Date.now()}`;
    const queue = async (name: string) => {
      const thing = await Things.create({ name, count: 0 });
      const event = newEvent(type, { name });
      await Things.updateOne({ _id: thing._id }, outboxPush(event));
      return { id: thing._id, event };
    };
    const blocker = await queue('blocker');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const published: string[] = [];
    let held = false;
    const relay = new OutboxRelay({
      models: [Things],
      logger,
      // No periodic sweep during the test: only what the relay does on its own counts.
      intervalMs: 60_000,
      publisher: {
        publish: async (event) => {
          if (event.id === blocker.event.id) {
            held = true;
            await gate;
          }
          published.push(event.id);
          await events.publish(event);
        },
      },
    });
    relay.start(); // the first pass is a sweep: it has read the collection once the blocker's publish is held
    while (!held) await new Promise((r) => setTimeout(r, 10));
    const nudged = await queue('nudged');
    const quiet = await queue('quiet');
    relay.nudge(nudged.id);
    release();
    while (!published.includes(nudged.event.id)) await new Promise((r) => setTimeout(r, 10));
    await relay.stop();
    expect(published).toContain(blocker.event.id);
    // The quiet document was written without a nudge: it waits for the next sweep.
    expect(published).not.toContain(quiet.event.id);
  });
});
