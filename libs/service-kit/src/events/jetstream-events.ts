import {
  AckPolicy,
  DeliverPolicy,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  JSONCodec,
  type NatsConnection,
  nanos,
  StorageType,
} from 'nats';
import type { Logger } from 'pino';
import { waitAtMost } from '../util/time-limits';
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

  constructor(
    private readonly connection: NatsConnection,
    private readonly logger: Logger,
  ) {
    this.js = connection.jetstream();
  }

  private async jsm(): Promise<JetStreamManager> {
    this.manager ??= await this.connection.jetstreamManager();
    return this.manager;
  }

  /**
   * Creates the events stream if it is missing (any service may be first to start), and gives the
   * age limit (`EVENTS_MAX_AGE_DAYS`) to a stream created before there was one.
   */
  async ensureStream(): Promise<void> {
    const jsm = await this.jsm();
    const existing = await jsm.streams.info(EVENTS_STREAM).catch(() => undefined);
    if (existing) {
      if (existing.config.max_age !== MAX_AGE_NANOS) {
        await jsm.streams.update(EVENTS_STREAM, { ...existing.config, max_age: MAX_AGE_NANOS });
        this.logger.info(
          { stream: EVENTS_STREAM, maxAgeDays: EVENTS_MAX_AGE_DAYS },
          'events stream age limit set',
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
      });
    } catch (error) {
      // Another service created it between our look-up and our add.
      await jsm.streams.info(EVENTS_STREAM).catch(() => {
        throw error;
      });
    }
  }

  /** Publishes and waits for the stream's acknowledgement; the event id is the Nats-Msg-Id. */
  async publish(event: EventEnvelope): Promise<void> {
    await this.js.publish(eventSubject(event.type), codec.encode(event), { msgID: event.id, timeout: 5_000 });
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

  private async deliver(durable: string, message: JsMsg, handler: EventHandler): Promise<void> {
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
    }
  }
}
