import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { ADMIN_ACTION, type EventEnvelope, adminActionData } from '@shop/contracts';
import {
  type ConsumerHandle,
  JetStreamEvents,
  SERVICE_CONTEXT,
  type ServiceContext,
  isDuplicateKey,
} from '@shop/service-kit';
import type { Model } from 'mongoose';
import { AUDIT_ENTRY_MODEL, type AuditEntryRecord } from './audit-entry.schema';

/** The durable consumer, shared by every data replica, that writes the audit trail. */
export const AUDIT_CONSUMER = 'data-audit';

/**
 * The audit trail's one writer: each `admin.action` event (queued by the service that owns the data, in
 * the same write as the change) becomes one entry, stored under the event's id. A redelivered event
 * finds its entry there and is only acknowledged; an event is acknowledged only once its entry is
 * stored, so a writer that dies midway leaves it to the next delivery: nothing lost, nothing twice.
 */
@Injectable()
export class AuditWriter implements OnApplicationBootstrap, OnModuleDestroy {
  private consumer?: ConsumerHandle;

  constructor(
    private readonly events: JetStreamEvents,
    @InjectModel(AUDIT_ENTRY_MODEL) private readonly entries: Model<AuditEntryRecord>,
    @Inject(SERVICE_CONTEXT) private readonly context: ServiceContext,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // The subjects written out here: the contract tools read them from this call (docs/contracts.md).
    this.consumer = await this.events.consume(AUDIT_CONSUMER, [ADMIN_ACTION], (event) => this.handle(event));
  }

  async onModuleDestroy(): Promise<void> {
    await this.consumer?.stop();
  }

  /** One `admin.action` (a redelivered one too). */
  async handle(event: EventEnvelope): Promise<void> {
    if (event.type !== ADMIN_ACTION) return;
    // Fields a later version adds are kept out; what this build knows must be there.
    const parsed = adminActionData.loose().safeParse(event.data);
    if (!parsed.success) {
      this.context.logger.error(
        { eventId: event.id, issues: parsed.error.issues },
        'admin action not recorded: its data does not match admin.action',
      );
      return;
    }
    const { actorId, action, target, before, after } = parsed.data;
    try {
      await this.entries.create({
        _id: event.id,
        actorId,
        action,
        target,
        before,
        after,
        at: new Date(event.occurredAt),
        recordedAt: new Date(),
      });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
  }
}
