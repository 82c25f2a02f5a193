import { Inject, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import {
  JetStreamEvents,
  OutboxRelayProvider,
  SERVICE_CONTEXT,
  type ServiceContext,
} from '@shop/service-kit';
import type { Model } from 'mongoose';
import { WALLET_MODEL, type WalletRecord } from './wallet.schema';

/** Publishes the `wallet.updated` events queued in wallets, retrying while NATS is away. */
@Injectable()
export class WalletEventsRelay extends OutboxRelayProvider {
  constructor(
    @InjectModel(WALLET_MODEL) wallets: Model<WalletRecord>,
    events: JetStreamEvents,
    @Inject(SERVICE_CONTEXT) context: ServiceContext,
  ) {
    super([wallets], events, context);
  }
}
