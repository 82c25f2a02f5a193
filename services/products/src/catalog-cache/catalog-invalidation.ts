import { randomUUID } from 'node:crypto';
import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import {
  CATALOG_CHANGED,
  type CatalogChangedMessage,
  EVENTS_STREAM,
  PRODUCT_DELETED,
  PRODUCT_UPDATED,
  eventSubject,
} from '@shop/contracts';
import {
  JetStreamEvents,
  NATS_CONNECTION,
  SERVICE_CONTEXT,
  STOP_TIMEOUT_MS,
  type ServiceContext,
} from '@shop/service-kit';
import type { Connection } from 'mongoose';
import {
  type ConsumerMessages,
  DeliverPolicy,
  JSONCodec,
  type NatsConnection,
  type Subscription,
} from 'nats';
import { CatalogCache } from './catalog-cache';
import { type CatalogChange, onCatalogWrites } from './catalog-writes';

/**
 * Core NATS (not JetStream) subject on which a replica tells the others what its own writes changed,
 * at once. Stock taken or given back by orders raises no event, so this is how the other replicas
 * learn it. It is at most once: a message lost while NATS is away is covered by dropping everything
 * when the connection comes back. Internal to the products service; the subject keeps its spelling,
 * as replicas of two builds talk over it during an update.
 */
export const CATALOG_CHANGED_SUBJECT = 'products.internal.catalogue-changed';
const PRODUCT_EVENT_SUBJECTS = [eventSubject(PRODUCT_UPDATED), eventSubject(PRODUCT_DELETED)];
const RETRY_DELAY_MS = 1_000;

interface ChangeMessage {
  /** The replica that made the change (it has dropped its own answers already). */
  from: string;
  /** Absent: the catalog changed, drop every answer. */
  productIds?: string[];
}

const codec = JSONCodec<ChangeMessage>();
const publicCodec = JSONCodec<CatalogChangedMessage>();

/**
 * Keeps every replica's catalog cache fresh: a message controller of the three kinds of change
 * (`ownWrite`, `peerChanged`, `productEvent`) over the plumbing that delivers them. Its own writes
 * drop answers at once (catalog-writes.ts) and are announced on `CATALOG_CHANGED_SUBJECT`; every `product.*` event is followed from JetStream
 * by an ordered consumer of this replica alone (no queue group, nothing durable), so each replica
 * sees each event, including those of admins' changes made on another replica. The cache keeps
 * answers only while both are followed and NATS is connected; otherwise it is emptied and reads go
 * to the database.
 */
@Injectable()
export class CatalogInvalidation implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  private readonly replica = randomUUID();
  private stopListening?: () => void;
  private subscription?: Subscription;
  private messages?: ConsumerMessages;
  private following?: Promise<void>;
  private followingEvents = false;
  private connected = true;
  private stopped = false;
  private lastSequence = 0;

  constructor(
    private readonly cache: CatalogCache,
    @InjectConnection() private readonly connection: Connection,
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    private readonly events: JetStreamEvents,
    @Inject(SERVICE_CONTEXT) private readonly context: ServiceContext,
  ) {}

  onModuleInit(): void {
    this.stopListening = onCatalogWrites(this.connection, (change) => this.ownWrite(change));
  }

  async onApplicationBootstrap(): Promise<void> {
    this.subscription = this.nats.subscribe(CATALOG_CHANGED_SUBJECT, {
      callback: (error, message) => {
        if (error) return;
        try {
          this.peerChanged(codec.decode(message.data));
        } catch {
          this.cache.dropAll();
        }
      },
    });
    void this.watchConnection();
    await this.events.ensureStream();
    this.following = this.followEvents();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    this.stopListening?.();
    this.cache.setEnabled(false);
    this.subscription?.unsubscribe();
    await this.messages?.close().catch(() => undefined);
    await Promise.race([
      this.following,
      new Promise((resolve) => setTimeout(resolve, STOP_TIMEOUT_MS).unref()),
    ]);
  }

  /** A write of this replica (catalog-writes.ts): drop what it changed here, then tell the others. */
  private ownWrite(change: CatalogChange): void {
    const message: ChangeMessage = { from: this.replica };
    if (change.kind === 'stock') {
      this.cache.dropProducts(change.productIds);
      message.productIds = change.productIds;
    } else {
      this.cache.dropAll();
    }
    if (this.nats.isClosed()) return;
    this.nats.publish(CATALOG_CHANGED_SUBJECT, codec.encode(message));
    // The public announcement, for caches outside this service (the storefront's rendered pages).
    const announced: CatalogChangedMessage = message.productIds ? { productIds: message.productIds } : {};
    this.nats.publish(CATALOG_CHANGED, publicCodec.encode(announced));
  }

  /** Another replica's write, on `CATALOG_CHANGED_SUBJECT`. */
  private peerChanged(message: ChangeMessage): void {
    if (message.from === this.replica) return;
    if (Array.isArray(message.productIds)) this.cache.dropProducts(message.productIds.map(String));
    else this.cache.dropAll();
  }

  /** A `product.*` event, whichever replica's admin caused it: it may change any list, whatever it says. */
  private productEvent(): void {
    this.cache.dropAll();
  }

  private updateEnabled(): void {
    this.cache.setEnabled(!this.stopped && this.connected && this.followingEvents);
  }

  private async watchConnection(): Promise<void> {
    for await (const status of this.nats.status()) {
      if (status.type === 'disconnect' || status.type === 'reconnect') {
        // Messages sent while we were away are lost: start again from an empty cache.
        this.connected = status.type === 'reconnect';
        this.cache.dropAll();
        this.updateEnabled();
      }
    }
  }

  private async followEvents(): Promise<void> {
    while (!this.stopped && !this.nats.isClosed()) {
      try {
        const consumer = await this.nats.jetstream().consumers.get(EVENTS_STREAM, {
          filterSubjects: PRODUCT_EVENT_SUBJECTS,
          ...(this.lastSequence > 0
            ? { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: this.lastSequence + 1 }
            : { deliver_policy: DeliverPolicy.New }),
        });
        this.messages = await consumer.consume();
        this.followingEvents = true;
        this.updateEnabled();
        for await (const message of this.messages) {
          this.productEvent();
          this.lastSequence = message.seq;
        }
      } catch (error) {
        if (!this.stopped && !this.nats.isClosed())
          this.context.logger.warn({ err: error }, 'following product events failed, retrying');
      }
      this.followingEvents = false;
      this.updateEnabled();
      if (!this.stopped) await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
    }
  }
}
