import type { EventEnvelope } from '@shop/contracts';
import { mongoUrlFor, uniqueDbName } from '@shop/testing';
import mongoose, { type Connection } from 'mongoose';
import { connect, type NatsConnection } from 'nats';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { JetStreamEvents } from '../src/events/jetstream-events';
import { newEvent } from '../src/events/new-event';
import { OutboxRelay } from '../src/outbox/outbox-relay';
import { outboxPush } from '../src/outbox/outbox.schema';
import { type Thing, thingSchema } from './test-app.module';

const logger = pino({ level: 'silent' });
let nats: NatsConnection;
let db: Connection;
let events: JetStreamEvents;

beforeAll(async () => {
  nats = await connect({ servers: inject('natsUrl') });
  db = await mongoose.createConnection(mongoUrlFor(inject('mongoUrl'), uniqueDbName('relay'))).asPromise();
  events = new JetStreamEvents(nats, logger);
  await events.ensureStream();
});

afterAll(async () => {
  await nats?.drain();
  await db?.close();
});

describe('outbox relay, by the documents just written', () => {
  it('publishes only the named documents, each in order, and leaves the rest to a sweep', async () => {
    const Things = db.model<Thing>('Thing', thingSchema);
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
    expect(new Set(ids)).toEqual(new Set([...first.events, ...second.events].map((event) => event.id)));
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
    const Things = db.model<Thing>('Thing', thingSchema);
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
