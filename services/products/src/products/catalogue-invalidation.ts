import { randomUUID } from 'node:crypto';
import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { EVENTS_STREAM, PRODUCT_DELETED, PRODUCT_UPDATED, eventSubject } from '@shop/contracts';
import {
  JetStreamEvents,
  NATS_CONNECTION,
  SERVICE_CONTEXT,
  STOP_TIMEOUT_MS,
  type ServiceContext,
} from '@shop/service-kit';
import type { Model } from 'mongoose';
import {
  type ConsumerMessages,
  DeliverPolicy,
  JSONCodec,
  type NatsConnection,
  type Subscription,
} from 'nats';
import { CatalogueCache } from './catalogue-cache';
import { type ProductChange, onProductWrites } from './product-writes';
import { PRODUCT_MODEL, type ProductRecord } from './product.schema';

/**
 * Core NATS (not JetStream) subject on which a replica tells the others what its own writes changed,
 * at once. Stock taken or given back by orders raises no event, so this is how the other replicas
 * learn it. It is at most once: a message lost while NATS is away is covered by dropping everything
 * when the connection comes back. Internal to the products service.
 */
export const CATALOGUE_CHANGED_SUBJECT = 'products.internal.catalogue-changed';
const PRODUCT_EVENT_SUBJECTS = [eventSubject(PRODUCT_UPDATED), eventSubject(PRODUCT_DELETED)];
const RETRY_DELAY_MS = 1_000;

interface ChangeMessage {
  /** The replica that made the change (it has dropped its own answers already). */
  from: string;
  /** Absent: the catalogue changed, drop every answer. */
  productIds?: string[];
}

const codec = JSONCodec<ChangeMessage>();

/**
 * Keeps every replica's catalogue cache fresh. Its own writes drop answers at once (product-writes.ts)
 * and are announced on `CATALOGUE_CHANGED_SUBJECT`; every `product.*` event is followed from JetStream
 * by an ordered consumer of this replica alone (no queue group, nothing durable), so each replica
 * sees each event, including those of admins' changes made on another replica. The cache keeps
 * answers only while both are followed and NATS is connected; otherwise it is emptied and reads go
 * to the database.
 */
@Injectable()
export class CatalogueInvalidation implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
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
    private readonly cache: CatalogueCache,
    @InjectModel(PRODUCT_MODEL) private readonly products: Model<ProductRecord>,
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    private readonly events: JetStreamEvents,
    @Inject(SERVICE_CONTEXT) private readonly context: ServiceContext,
  ) {}

  onModuleInit(): void {
    this.stopListening = onProductWrites(this.products, (change) => this.ownWrite(change));
  }

  async onApplicationBootstrap(): Promise<void> {
    this.subscription = this.nats.subscribe(CATALOGUE_CHANGED_SUBJECT, {
      callback: (error, message) => {
        if (error) return;
        try {
          this.apply(codec.decode(message.data));
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

  private ownWrite(change: ProductChange): void {
    const message: ChangeMessage = { from: this.replica };
    if (change.kind === 'stock') {
      this.cache.dropProducts(change.productIds);
      message.productIds = change.productIds;
    } else {
      this.cache.dropAll();
    }
    if (!this.nats.isClosed()) this.nats.publish(CATALOGUE_CHANGED_SUBJECT, codec.encode(message));
  }

  private apply(message: ChangeMessage): void {
    if (message.from === this.replica) return;
    if (Array.isArray(message.productIds)) this.cache.dropProducts(message.productIds.map(String));
    else this.cache.dropAll();
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
          // Every product event may change any list: the content of the event does not matter.
          this.cache.dropAll();
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
