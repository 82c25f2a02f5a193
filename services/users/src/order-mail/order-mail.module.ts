import { type DynamicModule, Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { MailModule } from '../mail/mail.module';
import type { Mailer } from '../mail/mailer';
import { UsersModule } from '../users/users.module';
import { OrderMailConsumer } from './order-mail.consumer';
import { SENT_MAIL_MODEL, sentMailSchema } from './sent-mail.schema';

/** E-mail to shoppers at each step of their orders, from the orders' events. */
@Module({})
export class OrderMailModule {
  /** `mailer` replaces the configured one (tests read what was sent). */
  static register(mailer?: Mailer): DynamicModule {
    return {
      module: OrderMailModule,
      imports: [
        UsersModule,
        MailModule.register(mailer),
        MongooseModule.forFeature([{ name: SENT_MAIL_MODEL, schema: sentMailSchema }]),
      ],
      providers: [OrderMailConsumer],
    };
  }
}
