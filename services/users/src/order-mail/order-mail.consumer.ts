import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import {
  ORDER_CANCELLED,
  ORDER_CREATED,
  ORDER_DELIVERED,
  ORDER_PAID,
  ORDER_REFUNDED,
  type EventEnvelope,
} from '@shop/contracts';
import {
  type ConsumerHandle,
  JetStreamEvents,
  SERVICE_CONTEXT,
  type ServiceContext,
} from '@shop/service-kit';
import type { Model } from 'mongoose';
import { Mailer } from '../mail/mailer';
import { USER_MODEL, type UserRecord } from '../users/user.schema';
import { orderMail } from './order-mail';
import { SENT_MAIL_MODEL, type SentMailRecord } from './sent-mail.schema';

/** The durable consumer, shared by every users replica, of the order events shoppers hear about. */
export const ORDER_MAIL_CONSUMER = 'users-order-mail';

/**
 * E-mails the customer of an order at each step (order-mail.ts), through the mailer the password reset
 * uses. Once per event: the event's id is claimed in `sent_mails` before the message goes and marked sent
 * after, so a redelivered event whose message went is only acknowledged. A message that failed (the
 * mailer threw) is tried again on the redelivery; one that went while the process died before marking it
 * goes a second time: at least once, twice only in that window. A deleted or unknown account gets nothing.
 */
@Injectable()
export class OrderMailConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private consumer?: ConsumerHandle;

  constructor(
    private readonly events: JetStreamEvents,
    @InjectModel(USER_MODEL) private readonly users: Model<UserRecord>,
    @InjectModel(SENT_MAIL_MODEL) private readonly sent: Model<SentMailRecord>,
    private readonly mailer: Mailer,
    @Inject(SERVICE_CONTEXT) private readonly context: ServiceContext,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // The subjects written out here: the contract tools read them from this call (docs/contracts.md).
    this.consumer = await this.events.consume(
      ORDER_MAIL_CONSUMER,
      [ORDER_CREATED, ORDER_PAID, ORDER_DELIVERED, ORDER_CANCELLED, ORDER_REFUNDED],
      (event) => this.handle(event),
    );
  }

  async onModuleDestroy(): Promise<void> {
    await this.consumer?.stop();
  }

  /** One order event (a redelivered one too). */
  async handle(event: EventEnvelope): Promise<void> {
    const userId = (event.data as { userId?: unknown } | undefined)?.userId;
    if (typeof userId !== 'string' || !/^[0-9a-f]{24}$/i.test(userId)) return;
    const user = await this.users
      .findOne({ _id: userId, deletedAt: null })
      .select('name email')
      .lean<Pick<UserRecord, 'name' | 'email'>>();
    if (!user) return;
    let mail: ReturnType<typeof orderMail>;
    try {
      mail = orderMail(event, user.name);
    } catch (error) {
      this.context.logger.warn(
        { err: error, eventId: event.id, type: event.type },
        'order e-mail not written',
      );
      return;
    }
    if (!mail) return;
    const before = await this.sent
      .findOneAndUpdate(
        { _id: event.id },
        { $setOnInsert: { state: 'sending', type: event.type, claimedAt: new Date() } },
        { upsert: true, returnDocument: 'before' },
      )
      .lean<SentMailRecord>();
    if (before?.state === 'sent') return;
    await this.mailer.send({ to: user.email, subject: mail.subject, text: mail.text, html: mail.html });
    await this.sent.updateOne({ _id: event.id }, { $set: { state: 'sent', sentAt: new Date() } });
  }
}
