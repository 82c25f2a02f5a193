import {
  AckPolicy,
  DeliverPolicy,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  JSONCodec,
  type NatsConnection,
  nanos,
  type NatsError,
  StorageType,
} from 'nats';
import { type Counter, context } from '@opentelemetry/api';
import type { Logger } from 'pino';
import { endSpan, startProcess, startPublish } from '../telemetry/nats-spans';
import { shopCounter, shopMeter } from '../telemetry/shop-metrics';
import { waitAtMost, within } from '../util/time-limits';
import { type ReadEvent, readEvent } from './read-event';
import {
  EVENTS_MAX_AGE_DAYS,
  EVENTS_STREAM,
  EVENTS_SUBJECT_PREFIX,
  type EventEnvelope,
  eventSubject,
} from '@shop/contracts';

const codec = JSONCodec<unknown>();
const MAX_AGE_NANOS = nanos(EVENTS_MAX_AGE_DAYS * 86_400_000);

/**
 * How long an event of a newer schema version than this build knows waits before it is offered
 * again (to any replica of the durable consumer): during a rolling update an upgraded one takes it.
 */
export const NEWER_VERSION_RETRY_MS = 15_000;

/** The broker's JetStream error code for a message get that found nothing. */
const NO_MESSAGE_FOUND = 10037;

/** How long stopping a consumer may wait for the broker: a shutdown must not hang while it is away. */
export const STOP_TIMEOUT_MS = 2_000;

export type EventHandler = (event: EventEnvelope) => Promise<void>;

export interface ConsumerHandle {
  /** Stops consuming; waits for the handler in progress, but at most `STOP_TIMEOUT_MS`. */
  stop(): Promise<void>;
}

/** Durable domain events over JetStream: one stream for all events, de-duplicated by event id. */
export class JetStreamEvents {
  private readonly js: JetStreamClient;
  private manager?: JetStreamManager;
  private readonly durables = new Set<string>();
  private readonly redeliveries: Counter;

  private readonly replicas: number;

  constructor(
    private readonly connection: NatsConnection,
    private readonly logger: Logger,
    /** `replicas`: copies of the stream on a NATS cluster (NATS_STREAM_REPLICAS; 1 by default). */
    options: { replicas?: number } = {},
  ) {
    this.replicas = options.replicas ?? 1;
    this.js = connection.jetstream();
    this.redeliveries = shopCounter(
      'shop.jetstream.redeliveries',
      'Events a durable consumer was given again (a failed or unacknowledged earlier delivery)',
    );
    this.observeConsumers();
  }

  /**
   * The lag of this process's durable consumers, read from the broker when metrics are scraped
   * (`consumerLag`): `pending` not yet delivered, `ack_pending` delivered and not yet acknowledged,
   * `oldest_pending_age` how long the oldest of either has been in the stream.
   */
  private observeConsumers(): void {
    const meter = shopMeter();
    const pending = meter.createObservableGauge('shop.jetstream.consumer.pending', {
      description: 'Events in the stream not yet delivered to the durable consumer',
    });
    const ackPending = meter.createObservableGauge('shop.jetstream.consumer.ack_pending', {
      description: 'Events delivered to the durable consumer and not yet acknowledged',
    });
    const oldestAge = meter.createObservableGauge('shop.jetstream.consumer.oldest_pending_age', {
      description:
        'How long the oldest event the durable consumer has not acknowledged has been in the stream',
      unit: 's',
    });
    meter.addBatchObservableCallback(
      async (result) => {
        if (this.durables.size === 0 || this.connection.isClosed()) return;
        await Promise.all(
          [...this.durables].map(async (durable) => {
            const lag = await within(1_000, this.consumerLag(durable)).catch(() => undefined);
            if (!lag) return;
            result.observe(pending, lag.pending, { consumer: durable });
            result.observe(ackPending, lag.ackPending, { consumer: durable });
            result.observe(oldestAge, lag.oldestAgeSeconds, { consumer: durable });
          }),
        );
      },
      [pending, ackPending, oldestAge],
    );
  }

  /**
   * How far a durable consumer is behind, as the broker sees it: events not yet delivered, events
   * delivered and not acknowledged, and the age of the oldest of them (0 when none wait). The oldest is
   * the first event of the consumer's subjects after its acknowledgement floor (everything up to the
   * floor is acknowledged). A count says little across traffic levels; the age is how late the
   * service is with what other services told it.
   */
  async consumerLag(
    durable: string,
  ): Promise<{ pending: number; ackPending: number; oldestAgeSeconds: number }> {
    const jsm = await this.jsm();
    const info = await jsm.consumers.info(EVENTS_STREAM, durable);
    const lag = { pending: info.num_pending, ackPending: info.num_ack_pending, oldestAgeSeconds: 0 };
    if (lag.pending + lag.ackPending === 0) return lag;
    const { filter_subjects: subjects, filter_subject: subject } = info.config;
    const seq = info.ack_floor.stream_seq + 1;
    const oldest = await Promise.all(
      (subjects?.length ? subjects : [subject ?? `${EVENTS_SUBJECT_PREFIX}>`]).map((next) =>
        // The broker's STREAM.MSG.GET takes `next_by_subj` with `seq` (the client types it for direct
        // gets only, which need the stream's allow_direct).
        jsm.streams
          .getMessage(EVENTS_STREAM, { seq, next_by_subj: next } as unknown as { seq: number })
          .then((message) => message.time.getTime())
          // None left on that subject: acknowledged meanwhile.
          .catch((error: unknown) => {
            if ((error as NatsError).jsError?.()?.err_code === NO_MESSAGE_FOUND)
              return Number.POSITIVE_INFINITY;
            throw error;
          }),
      ),
    );
    const at = Math.min(...oldest);
    if (Number.isFinite(at)) lag.oldestAgeSeconds = Math.max(0, (Date.now() - at) / 1_000);
    return lag;
  }

  private async jsm(): Promise<JetStreamManager> {
    this.manager ??= await this.connection.jetstreamManager();
    return this.manager;
  }

  /**
   * Creates the events stream if it is missing (any service may be first to start), and gives the
   * age limit (`EVENTS_MAX_AGE_DAYS`) and the replica count to a stream created with others.
   */
  async ensureStream(): Promise<void> {
    const jsm = await this.jsm();
    const existing = await jsm.streams.info(EVENTS_STREAM).catch(() => undefined);
    if (existing) {
      const { max_age: maxAge, num_replicas: replicas } = existing.config;
      if (maxAge !== MAX_AGE_NANOS || replicas !== this.replicas) {
        await jsm.streams.update(EVENTS_STREAM, {
          ...existing.config,
          max_age: MAX_AGE_NANOS,
          num_replicas: this.replicas,
        });
        this.logger.info(
          { stream: EVENTS_STREAM, maxAgeDays: EVENTS_MAX_AGE_DAYS, replicas: this.replicas },
          'events stream age limit and replicas set',
        );
      }
      return;
    }
    try {
      await jsm.streams.add({
        name: EVENTS_STREAM,
        subjects: [`${EVENTS_SUBJECT_PREFIX}>`],
        storage: StorageType.File,
        duplicate_window: nanos(10 * 60_000),
        max_age: MAX_AGE_NANOS,
        num_replicas: this.replicas,
      });
    } catch (error) {
      // Another service created it between our look-up and our add.
      await jsm.streams.info(EVENTS_STREAM).catch(() => {
        throw error;
      });
    }
  }

  /**
   * Publishes and waits for the stream's acknowledgement; the event id is the Nats-Msg-Id. The
   * message carries the trace context of its PRODUCER span `<subject> publish`, a child of the
   * active context (the outbox relay makes that the context stored with the event).
   */
  async publish(event: EventEnvelope): Promise<void> {
    const subject = eventSubject(event.type);
    const { span, headers } = startPublish(subject, { 'messaging.message.id': event.id });
    try {
      await this.js.publish(subject, codec.encode(event), { msgID: event.id, timeout: 5_000, headers });
      endSpan(span);
    } catch (error) {
      endSpan(span, error);
      throw error;
    }
  }

  /**
   * Runs a durable consumer: it resumes where it stopped after a restart, and redelivers
   * what a handler failed on. Handlers must be idempotent (see `handleOnce`). They get envelopes
   * through `readEvent`: without unknown envelope fields, a missing version read as the first, and
   * never of a schema version newer than this build knows.
   */
  async consume(durable: string, types: string[], handler: EventHandler): Promise<ConsumerHandle> {
    await this.ensureStream();
    const jsm = await this.jsm();
    await jsm.consumers.add(EVENTS_STREAM, {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subjects: types.map(eventSubject),
      ack_wait: nanos(30_000),
      max_deliver: -1,
    });
    this.durables.add(durable);
    const consumer = await this.js.consumers.get(EVENTS_STREAM, durable);
    const messages = await consumer.consume({ max_messages: 64 });
    const done = (async () => {
      for await (const message of messages) await this.deliver(durable, message, handler);
    })();
    return {
      stop: () =>
        waitAtMost(
          STOP_TIMEOUT_MS,
          (async () => {
            await messages.close();
            await done;
          })(),
        ),
    };
  }

  /**
   * Handles one delivery inside a CONSUMER span `<subject> process`, a child of the publisher's
   * span; a redelivery says so on its span (`messaging.nats.redelivered`, the delivery count) and in
   * `shop_jetstream_redeliveries_total{consumer}`.
   */
  private async deliver(durable: string, message: JsMsg, handler: EventHandler): Promise<void> {
    const { redelivered, deliveryCount } = message.info;
    if (redelivered) this.redeliveries.add(1, { consumer: durable });
    const { span, context: handling } = startProcess(message.subject, message.headers, {
      'messaging.consumer.group.name': durable,
      'messaging.nats.redelivered': redelivered,
      'messaging.nats.delivery_count': deliveryCount,
    });
    try {
      await context.with(handling, () => this.handle(durable, message, handler));
      endSpan(span);
    } catch (error) {
      endSpan(span, error);
    }
  }

  private async handle(durable: string, message: JsMsg, handler: EventHandler): Promise<void> {
    let read: ReadEvent;
    try {
      read = readEvent(codec.decode(message.data));
    } catch {
      read = { kind: 'invalid' };
    }
    if (read.kind === 'invalid') {
      this.logger.error({ durable, subject: message.subject }, 'dropping an undecodable event');
      message.term();
      return;
    }
    const { event } = read;
    if (read.kind === 'newer') {
      // A producer was deployed before this consumer learned the version. Guessing could corrupt
      // data, and dropping would lose the event: leave it to a replica that knows the version.
      this.logger.warn(
        {
          durable,
          eventId: event.id,
          type: event.type,
          schemaVersion: event.schemaVersion,
          knownVersion: read.knownVersion,
        },
        'event of a newer schema version left for an upgraded consumer',
      );
      message.nak(NEWER_VERSION_RETRY_MS);
      return;
    }
    try {
      await handler(event);
      message.ack();
    } catch (error) {
      this.logger.warn(
        { err: error, durable, eventId: event.id, type: event.type },
        'event handler failed, will retry',
      );
      message.nak(1_000);
      throw error;
    }
  }
}
