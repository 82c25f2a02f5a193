import { type BatchObservableCallback, ROOT_CONTEXT, context } from '@opentelemetry/api';
import { type EventEnvelope, FIRST_SCHEMA_VERSION } from '@shop/contracts';
import type { Model } from 'mongoose';
import type { Logger } from 'pino';
import { shopMeter } from '../telemetry/shop-metrics';
import { restoreTraceContext } from '../telemetry/trace-context';
import { PassLoop, type PassReason } from '../util/pass-loop';
import type { OutboxEntry } from './outbox.schema';

export interface EventPublisher {
  publish(event: EventEnvelope): Promise<void>;
}

export interface OutboxRelayOptions {
  /** Aggregates whose schemas use `withOutbox`; their document types differ, hence `any`. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  models: Model<any>[];
  publisher: EventPublisher;
  logger: Logger;
  /** How often to look for pending events when nobody nudges; also the retry delay after a failure. */
  intervalMs?: number;
  batchSize?: number;
  /** Whether publishing is paused (the fault flag `outboxRelayPaused`): events wait, and go out once it is not. */
  paused?: () => Promise<boolean>;
}

// How many documents with pending events a scrape reads at most to measure the backlog.
const BACKLOG_SCAN_LIMIT = 10_000;

/**
 * Publishes the events waiting in aggregates' outboxes and removes each one only after the broker
 * acknowledged it, retrying until it does. A publish that succeeded just before a crash is sent
 * again on restart; JetStream drops it by its Nats-Msg-Id.
 *
 * Each event is published under the trace context stored with it, so its PRODUCER span is a child
 * of the request that queued it (a parent, not a link: the event is part of that request's work,
 * and its consumers' spans land in the same trace). Passes themselves belong to no request.
 */
export class OutboxRelay {
  private readonly loop: PassLoop;
  private readonly batchSize: number;
  private readonly intervalMs: number;
  // Documents just written with an event (`nudge(id)`): a pass looks them up by id instead of scanning
  // every document for a non-empty outbox, which on a database without secondary indexes (the
  // embedded one) reads the whole collection once per write (docs/performance.md).
  private readonly written = new Set<unknown>();
  private sweepDue = true;
  private lastSweep = 0;
  private observing?: () => void;

  constructor(private readonly options: OutboxRelayOptions) {
    this.intervalMs = options.intervalMs ?? 1_000;
    this.batchSize = options.batchSize ?? 100;
    this.loop = new PassLoop({
      intervalMs: this.intervalMs,
      // A pass serves every request that nudged it, so it runs in none of their traces.
      pass: (reason) => context.with(ROOT_CONTEXT, () => this.passDue(reason)),
      onError: (error) => {
        this.sweepDue = true;
        this.options.logger.warn({ err: error }, 'outbox relay pass failed, will retry');
      },
    });
  }

  start(): void {
    this.sweepDue = true;
    this.observeBacklog();
    this.loop.start();
  }

  async stop(): Promise<void> {
    this.observing?.();
    this.observing = undefined;
    await this.loop.stop();
  }

  /**
   * `shop_outbox_backlog{aggregate}` (events waiting) and `shop_outbox_oldest_age_seconds{aggregate}`
   * (how long the oldest has waited), read from the database when metrics are scraped.
   */
  private observeBacklog(): void {
    if (this.observing) return;
    const meter = shopMeter();
    const backlog = meter.createObservableGauge('shop.outbox.backlog', {
      description: 'Events written to an outbox and not yet published',
    });
    const oldestAge = meter.createObservableGauge('shop.outbox.oldest_age', {
      description: 'How long the oldest unpublished event of an outbox has waited',
      unit: 's',
    });
    const observe: BatchObservableCallback = async (result) => {
      const now = Date.now();
      for (const model of this.options.models) {
        // The driver's own find: a projection of the entries' times, whatever the schema hides.
        const docs = await model.collection
          .find({ 'outbox.0': { $exists: true } }, { projection: { 'outbox.occurredAt': 1 } })
          .limit(BACKLOG_SCAN_LIMIT)
          .toArray();
        let count = 0;
        let oldest = now;
        for (const doc of docs) {
          for (const entry of (doc['outbox'] ?? []) as { occurredAt?: string }[]) {
            count += 1;
            const at = entry.occurredAt ? Date.parse(entry.occurredAt) : NaN;
            if (at < oldest) oldest = at;
          }
        }
        const attributes = { aggregate: model.modelName };
        result.observe(backlog, count, attributes);
        result.observe(oldestAge, count === 0 ? 0 : (now - oldest) / 1_000, attributes);
      }
    };
    meter.addBatchObservableCallback(observe, [backlog, oldestAge]);
    this.observing = () => meter.removeBatchObservableCallback(observe, [backlog, oldestAge]);
  }

  /**
   * Asks for a pass soon, e.g. right after a write queued an event. Given the id of the document
   * written, the pass looks up that document only; without, it sweeps every model. A sweep also runs
   * at the interval, after a failure, and at least every 10 intervals under steady nudging, so an
   * event whose nudge was lost (a crash, a failed publish) still goes out.
   */
  nudge(id?: unknown): void {
    if (id === undefined) this.sweepDue = true;
    else this.written.add(id);
    this.loop.nudge();
  }

  /**
   * A pass over what is due: the ids written since the last pass or, when due, a sweep. A pass
   * after nudges with ids reads those ids, not a sweep: under steady load a sweep after every pass
   * read the whole collection once per pass.
   */
  private async passDue(reason: PassReason): Promise<void> {
    if (await this.options.paused?.()) {
      // Nothing is read or published; the next pass, at the interval, sweeps everything that waited.
      this.sweepDue = true;
      this.written.clear();
      return;
    }
    const sweep = reason === 'timer' || this.sweepDue || Date.now() - this.lastSweep >= 10 * this.intervalMs;
    const only = sweep ? undefined : [...this.written];
    this.sweepDue = false;
    if (sweep) this.lastSweep = Date.now();
    this.written.clear();
    await this.pass(only);
  }

  /**
   * One sweep over every model, or over the documents `only` names; answers how many events were
   * published. Documents are published side by side (each one's events in order), then their
   * published entries are pulled in one update per model.
   */
  async pass(only?: unknown[]): Promise<number> {
    let published = 0;
    for (const model of this.options.models) {
      if (only?.length === 0) break;
      const pending = await model
        .find({ ...(only ? { _id: { $in: only } } : {}), 'outbox.0': { $exists: true } })
        .select('+outbox')
        .limit(only ? only.length : this.batchSize)
        .lean<{ _id: unknown; outbox: OutboxEntry[] }[]>();
      const sent: string[] = [];
      const outcomes = await Promise.allSettled(
        pending.map(async (doc) => {
          for (const entry of doc.outbox) {
            await this.publish(entry);
            sent.push(entry.id);
          }
        }),
      );
      if (sent.length > 0) {
        // Publishing is not a change of the aggregate: its updatedAt stays as the write left it.
        await model.updateMany(
          { _id: { $in: pending.map((doc) => doc._id) } },
          { $pull: { outbox: { id: { $in: sent } } } },
          { timestamps: false },
        );
        published += sent.length;
      }
      const failed = outcomes.find((outcome) => outcome.status === 'rejected');
      if (failed) throw failed.reason;
      // A full batch may have left more behind: sweep again straight away.
      if (!only && pending.length === this.batchSize) this.nudge();
    }
    return published;
  }

  private async publish(entry: OutboxEntry): Promise<void> {
    await context.with(restoreTraceContext(entry.traceContext), () =>
      this.options.publisher.publish({
        id: entry.id,
        type: entry.type,
        // An entry an older replica queued during a rolling update has the first version's shape.
        schemaVersion: entry.schemaVersion ?? FIRST_SCHEMA_VERSION,
        occurredAt: entry.occurredAt,
        data: entry.data,
      }),
    );
  }
}
