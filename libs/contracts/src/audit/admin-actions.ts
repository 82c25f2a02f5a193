/**
 * What an admin can do that the audit trail records (docs/product/rules.md, "Audit trail"). Plain values,
 * apart from the event's schema, so a screen that lists them loads no schema code.
 */
export const ADMIN_ACTIONS = [
  'product.created',
  'product.updated',
  'product.stock-changed',
  'product.deleted',
  'order.paid',
  'order.delivered',
  'order.cancelled',
  'order.refunded',
  'order.deleted',
  'user.promoted',
  'user.deleted',
  'wallet.updated',
  'settings.updated',
  'flag.switched',
] as const;

export type AdminActionName = (typeof ADMIN_ACTIONS)[number];

/** What an admin action is done to. */
export const AUDIT_TARGET_TYPES = ['product', 'order', 'user', 'wallet', 'settings', 'flag'] as const;

export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];
