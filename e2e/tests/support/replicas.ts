import { EVENTS_STREAM, type EventEnvelope, eventSubject } from '@shop/contracts';
import type { RunningStack, ServiceInstance } from '@shop/dev-stack';
import type { NatsConnection } from 'nats';
import { expect } from '@playwright/test';

/** What the replicas spec reads beside the API: each copy's own port, metrics and log, and the events stream. */

/**
 * How long the test's own JetStream API calls may wait: on two busy cores, with a node of the cluster just
 * restarted, the default 5 s has run out (the services' own calls retry).
 */
const JETSTREAM_TIMEOUT_MS = 20_000;

/**
 * How often a service's outbox relay sweeps every outbox when nothing nudges it: the relay's interval as
 * every service runs it, `OutboxRelay`'s default (libs/service-kit/src/outbox/outbox-relay.ts), which no
 * service and no variable changes. Restated, not imported: the browser tests may not import the service
 * kit (eslint's module boundaries), and the kit exports no such constant.
 */
export const OUTBOX_RELAY_INTERVAL_MS = 1_000;

/** Where one copy of a service answers, bypassing the gateway. */
export const directUrl = (instance: ServiceInstance) => `http://127.0.0.1:${instance.port}`;

/** Every running copy of `service`, the first (on the service's own port) first. */
export const copiesOf = (stack: RunningStack, service: string) =>
  stack.instances.filter((each) => each.service === service);

/**
 * The sum of every series of a counter (`shop_orders_placed_total`) on one copy's own metrics endpoint:
 * what that copy did, whatever the gateway sent to the other. 0 until the copy first counts one.
 */
export async function counterOn(instance: ServiceInstance, name: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${instance.metricsPort}/metrics`)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .reduce((sum, line) => {
      const value = line.slice(line.includes('}') ? line.lastIndexOf('}') + 1 : name.length).trim();
      return sum + Number(value.split(' ')[0]);
    }, 0);
}

/** Every event of one type in the stream, read from its start by an ordered consumer of the test's own. */
export async function eventsInStream(nats: NatsConnection, type: string): Promise<EventEnvelope[]> {
  const consumer = await nats
    .jetstream({ timeout: JETSTREAM_TIMEOUT_MS })
    .consumers.get(EVENTS_STREAM, { filterSubjects: [eventSubject(type)] });
  if ((await consumer.info()).num_pending === 0) return [];
  const events: EventEnvelope[] = [];
  const messages = await consumer.consume();
  for await (const message of messages) {
    events.push(message.json<EventEnvelope>());
    if (message.info.pending === 0) break;
  }
  return events;
}

/** How many events of each id are among `events`, for the ids the test cares about. */
export function timesEach(events: EventEnvelope[], ids: string[], idOf: (event: EventEnvelope) => string) {
  const counts = new Map(ids.map((id) => [id, 0]));
  for (const event of events) {
    const id = idOf(event);
    if (counts.has(id)) counts.set(id, counts.get(id)! + 1);
  }
  return counts;
}

/**
 * The durable consumers of the events stream that take `type`, with how many events each was given
 * (redeliveries included), how many again, and how many wait for an ack or a delivery.
 */
export async function durablesOf(nats: NatsConnection, type: string) {
  const jsm = await nats.jetstreamManager({ timeout: JETSTREAM_TIMEOUT_MS });
  const subject = eventSubject(type);
  const found: { name: string; delivered: number; redelivered: number; waiting: number }[] = [];
  for await (const info of jsm.consumers.list(EVENTS_STREAM)) {
    const filters = [info.config.filter_subject, ...(info.config.filter_subjects ?? [])];
    if (!info.config.durable_name || !filters.includes(subject)) continue;
    found.push({
      name: info.name,
      delivered: info.delivered.consumer_seq,
      redelivered: info.num_redelivered,
      waiting: info.num_ack_pending + info.num_pending,
    });
  }
  return found;
}

/**
 * The NATS node that leads the events stream's replicas (`nats-2`). Right after a node of the cluster was
 * killed and restarted, the JetStream API may not answer for a while: asked again until it does.
 */
export async function streamLeader(nats: NatsConnection): Promise<string> {
  // checkAPI false: the manager's own first call (an account info) would otherwise be asked once, outside
  // the poll, and its timeout fail the test (CI: 20 s without an answer right after a node's restart).
  const jsm = await nats.jetstreamManager({ timeout: JETSTREAM_TIMEOUT_MS, checkAPI: false });
  let leader = '';
  await expect
    .poll(
      async () => {
        // A call that times out is asked again: expect.poll stops at the first error its callback throws.
        leader = await jsm.streams
          .info(EVENTS_STREAM)
          .then((info) => info.cluster?.leader ?? '')
          .catch((error: unknown) => `no answer (${String(error)})`);
        return leader;
      },
      { timeout: 60_000, intervals: [1_000] },
    )
    .toMatch(/^nats-\d$/);
  return leader;
}
