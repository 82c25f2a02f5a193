import { EVENTS_STREAM } from '@shop/contracts';
import { type NatsCluster, startScratchNatsCluster, until } from '@shop/testing';
import type { NatsConnection } from 'nats';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JetStreamEvents } from '../src/events/jetstream-events';
import { newEvent } from '../src/events/new-event';
import { connectNats } from '../src/nats/nats-connection';

const logger = pino({ level: 'silent' });

// A cluster losing and electing a leader takes seconds; so may these waits. 45 s, not 20: on two cores
// loaded by the rest of the suite, 20 s once ran out before the consumer had the events after the kill.
const CLUSTER_WAIT = { timeoutMs: 45_000, intervalMs: 100 };

/** The outbox relay publishes again until the stream acknowledges; so does this. */
async function publishUntilAcknowledged(events: JetStreamEvents, type: string, n: number): Promise<string> {
  const event = newEvent(type, { n });
  await until(
    () =>
      events.publish(event).then(
        () => true,
        () => false,
      ),
    CLUSTER_WAIT,
  );
  return event.id;
}

describe('events on a three-node NATS cluster (NATS_URL lists every node, NATS_STREAM_REPLICAS=3)', () => {
  let cluster: NatsCluster;
  let connection: NatsConnection;

  beforeAll(async () => {
    cluster = await startScratchNatsCluster(3, 'kit-nats-cluster-');
    connection = await connectNats(cluster.url, 'kit-cluster-test', logger);
  });

  afterAll(async () => {
    await connection?.close();
    await cluster?.stop();
  });

  it('keeps the events stream on three nodes and goes on publishing and consuming when its leader is killed', async () => {
    const events = new JetStreamEvents(connection, logger, { replicas: 3 });
    await events.ensureStream();
    const jsm = await connection.jetstreamManager();
    const before = await jsm.streams.info(EVENTS_STREAM);
    expect(before.config.num_replicas).toBe(3);

    const type = `test.cluster.${Date.now()}`;
    const durable = `cluster-${Date.now()}`;
    // Deliveries per event id, so a repeat shows (a Set would hide it).
    const deliveries = new Map<string, number>();
    const consumer = await events.consume(durable, [type], async (event) => {
      deliveries.set(event.id, (deliveries.get(event.id) ?? 0) + 1);
    });
    const published: string[] = [];
    for (let n = 1; n <= 3; n += 1) published.push(await publishUntilAcknowledged(events, type, n));
    await until(() => deliveries.size === 3, CLUSTER_WAIT);

    const leader = cluster.nodes.find((node) => node.name.endsWith(before.cluster!.leader!))!;
    process.kill(leader.pid, 'SIGKILL');
    await leader.exited;

    for (let n = 4; n <= 6; n += 1) published.push(await publishUntilAcknowledged(events, type, n));
    // Counted once the consumer has nothing left to give: every message in the stream delivered and
    // acknowledged, so a copy stored twice has been delivered twice by now.
    await until(async () => {
      const info = await jsm.consumers.info(EVENTS_STREAM, durable).catch(() => undefined);
      return info?.num_pending === 0 && info.num_ack_pending === 0 && deliveries.size === 6;
    }, CLUSTER_WAIT);
    expect([...deliveries.keys()].sort()).toEqual([...published].sort());
    // JetStream delivers at least once. The stream holds each event once: a publish retried during the
    // election carries the same Nats-Msg-Id, which the stream's duplicate window drops. What may repeat
    // is a delivery: the killed node may take an acknowledgement (or the record of a delivery) with it,
    // and the new consumer leader gives those events again, once, to a consumer that must be
    // idempotent (handleOnce). So the events handled before the kill come at most twice; the ones
    // published after it, with no failover left, exactly once.
    const count = (ids: string[]) => ids.map((id) => deliveries.get(id));
    expect(count(published.slice(0, 3))).toEqual(Array.from({ length: 3 }, () => expect.toBeOneOf([1, 2])));
    expect(count(published.slice(3))).toEqual([1, 1, 1]);
    await consumer.stop();
  }, 120_000);
});
