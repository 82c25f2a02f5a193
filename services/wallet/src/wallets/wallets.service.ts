import {
  ConflictException,
  Injectable,
  NotFoundException,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { PAYMENT_METHODS, WALLET_UPDATED, type Wallet, type WalletUpdatedEvent } from '@shop/contracts';
import {
  type AuthenticatedUser,
  OutboxRelayProvider,
  adminActionEvent,
  isDuplicateKey,
  newEvent,
  stillHolding,
} from '@shop/service-kit';
import type { Model } from 'mongoose';
import type { UpdateWalletDto } from './dto/update-wallet.dto';
import { WALLET_MODEL, type WalletRecord } from './wallet.schema';

const WALLET_FIELDS = '_id paymentMethod paymentDetails qrCode';

function toWallet(record: WalletRecord): Wallet {
  return {
    _id: record._id.toHexString(),
    paymentMethod: record.paymentMethod,
    paymentDetails: record.paymentDetails ?? '',
    qrCode: record.qrCode ?? '',
  };
}

@Injectable()
export class WalletsService implements OnApplicationBootstrap {
  constructor(
    @InjectModel(WALLET_MODEL) private readonly wallets: Model<WalletRecord>,
    private readonly relay: OutboxRelayProvider,
  ) {}

  /** Every payment method's wallet, in the payment screen's order. */
  async all(): Promise<Wallet[]> {
    const records = await this.wallets.find().select(WALLET_FIELDS).lean<WalletRecord[]>();
    const rank = (record: WalletRecord) => PAYMENT_METHODS.indexOf(record.paymentMethod);
    return records.sort((a, b) => rank(a) - rank(b)).map(toWallet);
  }

  /** An admin sets where a payment method is paid to; `wallet.updated` goes out with the change. */
  async update(admin: AuthenticatedUser, request: UpdateWalletDto): Promise<Wallet> {
    const current = await this.wallets
      .findOne({ paymentMethod: request.coin })
      .select('_id paymentDetails qrCode')
      .lean<WalletRecord>();
    if (!current) throw new NotFoundException('Wallet not found');
    const before = { paymentDetails: current.paymentDetails, qrCode: current.qrCode };
    const audit = adminActionEvent({
      actor: admin,
      action: 'wallet.updated',
      target: { type: 'wallet', id: current._id.toHexString(), label: request.coin },
      before,
      after: { paymentDetails: request.walletId, qrCode: request.qrCode },
    });
    const event: WalletUpdatedEvent = newEvent(WALLET_UPDATED, {
      walletId: current._id.toHexString(),
      paymentMethod: request.coin,
      paymentDetails: request.walletId,
      qrCode: request.qrCode,
    });
    const updated = await this.relay.updateWithEvent(
      this.wallets,
      // Only while it holds what was read: the audit trail's "before" is what this change replaced.
      { _id: current._id, ...stillHolding(before) },
      { $set: { paymentDetails: request.walletId, qrCode: request.qrCode } },
      [event, audit],
      { returnDocument: 'after', projection: WALLET_FIELDS },
    );
    if (!updated) throw new ConflictException('The wallet changed meanwhile, please try again');
    return toWallet(updated);
  }

  /**
   * Gives every payment method its wallet, once: an existing one is never touched. The unique
   * index on the method keeps two replicas starting together from writing two.
   */
  async onApplicationBootstrap(): Promise<void> {
    for (const paymentMethod of PAYMENT_METHODS) {
      try {
        await this.wallets.updateOne(
          { paymentMethod },
          { $setOnInsert: { paymentMethod, paymentDetails: '', qrCode: '' } },
          { upsert: true },
        );
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
    }
  }
}
