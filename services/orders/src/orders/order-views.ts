import type { Order } from '@shop/contracts';
import type { OrderRecord } from './order.schema';

/** The fields of an order the API shows; the outbox, deletion and release bookkeeping stay inside. */
export const ORDER_FIELDS =
  '_id user orderItems shippingAddress paymentMethod itemsPrice taxPrice discount shippingPrice totalPrice ' +
  'isPaid paidAt isDelivered deliveredAt status paymentReceipt isCancelled cancelledAt refundedCents refunds ' +
  'createdAt updatedAt';

const iso = (date: Date | null | undefined): string | null => (date ? new Date(date).toISOString() : null);

/** A stored order as the API answers it. */
export function toOrder(record: OrderRecord): Order {
  return {
    _id: record._id.toHexString(),
    user: record.user,
    orderItems: record.orderItems.map(({ _id, name, quantity, price, image }) => ({
      _id,
      name,
      quantity,
      price,
      image: image ?? '',
    })),
    shippingAddress: {
      fullName: record.shippingAddress.fullName,
      address: record.shippingAddress.address,
      city: record.shippingAddress.city,
      country: record.shippingAddress.country,
      phoneNumber: record.shippingAddress.phoneNumber,
    },
    paymentMethod: record.paymentMethod,
    itemsPrice: record.itemsPrice,
    taxPrice: record.taxPrice,
    discount: record.discount ?? 0,
    shippingPrice: record.shippingPrice,
    totalPrice: record.totalPrice,
    isPaid: record.isPaid,
    paidAt: iso(record.paidAt),
    isDelivered: record.isDelivered,
    deliveredAt: iso(record.deliveredAt),
    status: record.status,
    paymentReceipt: record.paymentReceipt ?? '',
    isCancelled: record.isCancelled ?? false,
    cancelledAt: iso(record.cancelledAt),
    refundedCents: record.refundedCents ?? 0,
    refunds: (record.refunds ?? []).map((refund) => ({
      _id: refund._id.toHexString(),
      amountCents: refund.amountCents,
      reference: refund.reference,
      reason: refund.reason,
      refundedAt: iso(refund.refundedAt) ?? '',
    })),
    createdAt: iso(record.createdAt) ?? '',
    updatedAt: iso(record.updatedAt) ?? '',
  };
}
