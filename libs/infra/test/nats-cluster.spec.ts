import {
  AckPolicy,
  connect,
  type JetStreamClient,
  type NatsConnection,
  StorageType,
  StringCodec,
} from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NatsCluster, startScratchNatsCluster } from '../src/nats-cluster.js';
import { isAlive } from './process-helpers.js';

const codec = StringCodec();
/** The replicas of the test's stream: 3, one per node, as the stack's clustered NATS runs its streams. */
const REPLICAS = 3;

/**
 * Asks until JetStream answers. Right after a node dies, the stream's or the consumer's new leader may still
 * be in election: the API then times out (5 s by default) or says it has no leader, and a client asks again.
 */
async function untilAnswered<T>(ask: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      return await ask();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

const publishAcknowledged = (js: JetStreamClient, subject: string, body: string) =>
  untilAnswered(() => js.publish(subject, codec.encode(body), { msgID: body, timeout: 2_000 }));

describe('a three-node NATS cluster on this machine', () => {
  let cluster: NatsCluster;
  let nc: NatsConnection;

  beforeAll(async () => {
    cluster = await startScratchNatsCluster(3, 'shop-nats-cluster-');
    nc = await connect({ servers: cluster.url.split(','), maxReconnectAttempts: -1, reconnectTimeWait: 200 });
  });

  afterAll(async () => {
    await nc?.close();
    await cluster?.stop();
  });

  it('keeps a stream with three replicas writable and readable when its leader is killed with kill -9', async () => {
    expect(cluster.url.split(',')).toHaveLength(3);
    const jsm = await nc.jetstreamManager();
    const stream = await jsm.streams.add({
      name: 'CLUSTERED',
      subjects: ['clustered.>'],
      storage: StorageType.File,
      num_replicas: REPLICAS,
    });
    expect(stream.config.num_replicas).toBe(3);
    await untilAnswered(() =>
      jsm.consumers.add('CLUSTERED', { durable_name: 'reader', ack_policy: AckPolicy.Explicit }),
    );
    const js = nc.jetstream();
    for (let n = 1; n <= 5; n += 1) await publishAcknowledged(js, 'clustered.event', `event-${n}`);

    // The worst node to lose: the stream's leader.
    const { cluster: placement } = await jsm.streams.info('CLUSTERED');
    const leader = cluster.nodes.find((node) => node.name.endsWith(placement!.leader!));
    expect(leader, `leader ${placement?.leader}`).toBeDefined();
    process.kill(leader!.pid, 'SIGKILL');
    await leader!.exited;
    expect(isAlive(leader!.pid)).toBe(false);

    for (let n = 6; n <= 10; n += 1) await publishAcknowledged(js, 'clustered.event', `event-${n}`);
    const after = await untilAnswered(() => jsm.streams.info('CLUSTERED'));
    expect(after.cluster?.leader).not.toBe(placement!.leader);
    expect(after.state.messages).toBe(10);

    const consumer = await untilAnswered(() => js.consumers.get('CLUSTERED', 'reader'));
    // Each message once, in order; a pull made while the consumer's leader is in election comes back empty.
    const read: string[] = [];
    const readBy = Date.now() + 20_000;
    while (read.length < 10 && Date.now() < readBy) {
      const message = await consumer
        .next({ expires: 2_000 })
        .catch(() => new Promise<null>((resolve) => setTimeout(() => resolve(null), 250)));
      if (!message) continue;
      read.push(codec.decode(message.data));
      message.ack();
    }
    expect(read).toEqual(Array.from({ length: 10 }, (_, index) => `event-${index + 1}`));
  }, 90_000);
});
