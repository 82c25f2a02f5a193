import {
  EVENTS_STREAM,
  type EventEnvelope,
  USER_DELETED,
  USER_PASSWORD_RESET,
  type UserDeletedEvent,
  type UserPasswordResetEvent,
  eventSubject,
} from '@shop/contracts';
import {
  type ConsumerMessages,
  DeliverPolicy,
  type JetStreamManager,
  JSONCodec,
  type NatsConnection,
} from 'nats';
import type { Logger } from 'pino';
import { STOP_TIMEOUT_MS, type JetStreamEvents } from '../events/jetstream-events';
import { type ReadEvent, readEvent } from '../events/read-event';
import { waitAtMost } from '../util/time-limits';

const codec = JSONCodec<unknown>();
const SUBJECTS = [eventSubject(USER_DELETED), eventSubject(USER_PASSWORD_RESET)];

export interface TokenRevocationsOptions {
  /** How long start-up may take to replay the history before the service refuses to start. */
  catchUpTimeoutMs?: number;
  /** Delay before following the stream again after the subscription broke. */
  retryDelayMs?: number;
}

/**
 * The tokens a service must refuse although their signature is good: every token of a deleted
 * user, and a user's tokens issued before their latest password reset. Kept in memory and rebuilt
 * on every start by replaying `user.deleted` and `user.password-reset` from JetStream with an
 * ordered (ephemeral, deliver-all) consumer, which then keeps following the stream.
 */
export class TokenRevocations {
  private readonly deleted = new Set<string>();
  private readonly validFrom = new Map<string, number>();
  private lastSequence = 0;
  private messages?: ConsumerMessages;
  private following?: Promise<void>;
  private stopped = false;
  private caughtUp?: () => void;
  private catchUpTarget = 0;

  constructor(
    private readonly connection: NatsConnection,
    private readonly events: JetStreamEvents,
    private readonly logger: Logger,
    private readonly options: TokenRevocationsOptions = {},
  ) {}

  /** True when a token of `userId` issued at `issuedAtSeconds` must be refused. */
  isRevoked(userId: string, issuedAtSeconds: number): boolean {
    if (this.deleted.has(userId)) return true;
    const from = this.validFrom.get(userId);
    return from !== undefined && issuedAtSeconds < from;
  }

  /** Applies one event; applying it again changes nothing. */
  apply(event: EventEnvelope): void {
    if (event.type === USER_DELETED) {
      const { userId } = (event as UserDeletedEvent).data;
      if (typeof userId === 'string') this.deleted.add(userId);
    } else if (event.type === USER_PASSWORD_RESET) {
      const { userId, sessionsValidFrom } = (event as UserPasswordResetEvent).data;
      if (typeof userId !== 'string' || !Number.isFinite(sessionsValidFrom)) return;
      this.validFrom.set(userId, Math.max(this.validFrom.get(userId) ?? 0, sessionsValidFrom));
    }
  }

  /** Replays the history (resolving once it is all applied) and keeps following new events. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.events.ensureStream();
    const jsm = await this.connection.jetstreamManager();
    this.catchUpTarget = await lastSequenceOf(jsm);
    const ready = new Promise<void>((resolve) => {
      this.caughtUp = resolve;
    });
    this.checkCaughtUp();
    this.following = this.follow();
    const timeoutMs = this.options.catchUpTimeoutMs ?? 30_000;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`token revocations not replayed within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    try {
      await Promise.race([ready, timeout]);
    } catch (error) {
      await this.stop();
      throw error;
    } finally {
      clearTimeout(timer);
    }
    this.logger.info(
      { deletedUsers: this.deleted.size, passwordResets: this.validFrom.size },
      'token revocations replayed',
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.messages?.close().catch(() => undefined);
    // A subscription still being set up when the broker vanished must not hold the shutdown.
    await waitAtMost(STOP_TIMEOUT_MS, this.following);
  }

  private checkCaughtUp(): void {
    if (this.caughtUp && this.lastSequence >= this.catchUpTarget) {
      this.caughtUp();
      this.caughtUp = undefined;
    }
  }

  private async follow(): Promise<void> {
    while (!this.stopped) {
      try {
        // An ordered consumer starts at the stream's first message unless told otherwise; passing
        // DeliverPolicy.All explicitly makes nats.js 2.29 send a config the server refuses.
        const consumer = await this.connection.jetstream().consumers.get(EVENTS_STREAM, {
          filterSubjects: SUBJECTS,
          ...(this.lastSequence > 0
            ? { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: this.lastSequence + 1 }
            : {}),
        });
        this.messages = await consumer.consume();
        for await (const message of this.messages) {
          let read: ReadEvent;
          try {
            read = readEvent(codec.decode(message.data));
          } catch {
            read = { kind: 'invalid' };
          }
          if (read.kind === 'event') this.apply(read.event);
          else if (read.kind === 'newer') {
            // Replayed again by every start: the upgraded build that replaces this one applies it.
            this.logger.warn(
              { eventId: read.event.id, type: read.event.type, schemaVersion: read.event.schemaVersion },
              'ignoring a revocation event of a newer schema version',
            );
          } else {
            this.logger.error(
              { subject: message.subject, seq: message.seq },
              'ignoring an undecodable event',
            );
          }
          this.lastSequence = message.seq;
          this.checkCaughtUp();
        }
      } catch (error) {
        if (this.stopped || this.connection.isClosed()) return;
        this.logger.warn({ err: error }, 'following token revocations failed, retrying');
      }
      if (this.connection.isClosed()) return;
      if (!this.stopped)
        await new Promise((resolve) => setTimeout(resolve, this.options.retryDelayMs ?? 1_000));
    }
  }
}

/** The stream sequence of the newest revocation event, 0 when there is none. */
async function lastSequenceOf(jsm: JetStreamManager): Promise<number> {
  let last = 0;
  for (const subject of SUBJECTS) {
    try {
      const message = await jsm.streams.getMessage(EVENTS_STREAM, { last_by_subj: subject });
      last = Math.max(last, message.seq);
    } catch {
      // No such event yet.
    }
  }
  return last;
}
