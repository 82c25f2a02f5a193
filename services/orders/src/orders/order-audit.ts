import type { AdminActionName, OrderAction, OrderTransition } from '@shop/contracts';
import { type AuthenticatedUser, adminActionEvent } from '@shop/service-kit';
import type { OrderRecord, RefundRecord } from './order.schema';

/** The audit trail's name of each action an admin takes on an order. */
const AUDITED_ACTIONS: Partial<Record<OrderAction, AdminActionName>> = {
  markPaid: 'order.paid',
  deliver: 'order.delivered',
  cancel: 'order.cancelled',
  refund: 'order.refunded',
  delete: 'order.deleted',
};

/** An action on an order, as the audit trail needs it. */
export interface AuditedRequest {
  action: OrderAction;
  /** The admin acting, whose action the audit trail records (`admin.action` beside the event). */
  admin?: AuthenticatedUser;
  /** The refund recorded (`refund`). */
  refund?: RefundRecord;
}

/** The `admin.action` of an admin's transition: the fields it changed, before and after. */
export function orderAudit(request: AuditedRequest, before: OrderRecord, result: OrderTransition) {
  const action = request.admin && AUDITED_ACTIONS[request.action];
  if (!request.admin || !action) return [];
  const id = before._id.toHexString();
  const was = before as unknown as Record<string, unknown>;
  const changed = Object.keys(result.changes);
  const refund = request.refund && {
    refund: {
      amountCents: request.refund.amountCents,
      reference: request.refund.reference,
      reason: request.refund.reason,
    },
  };
  return [
    adminActionEvent({
      actor: request.admin,
      action,
      target: { type: 'order', id, label: `Order ${id}` },
      before:
        request.action === 'delete'
          ? { status: before.status, isDelivered: before.isDelivered, totalPrice: before.totalPrice }
          : Object.fromEntries(changed.map((key) => [key, was[key]])),
      after: request.action === 'delete' ? null : { ...result.changes, ...refund },
    }),
  ];
}
