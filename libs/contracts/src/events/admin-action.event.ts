import { z } from 'zod';
import { id, text } from '../messages/fields';
import { ADMIN_ACTIONS, AUDIT_TARGET_TYPES } from '../audit/admin-actions';
import type { EventEnvelope } from './event-envelope';

export const ADMIN_ACTION = 'admin.action';

/** The fields an action changed, each as it was (`before`) or as it became (`after`). */
const fieldValues = (description: string) =>
  z.record(z.string(), z.unknown()).nullable().describe(description);

/**
 * An admin did something to the shop's data. Queued in the same write as the change itself, by the service
 * that owns the data, so the audit trail's one writer (the data service) hears of every action that took
 * effect and of none that did not. `before` and `after` hold only the fields that changed.
 */
export const adminActionData = z.strictObject({
  actorId: id('The admin who acted (their user id)'),
  action: z.enum(ADMIN_ACTIONS),
  target: z.strictObject({
    type: z.enum(AUDIT_TARGET_TYPES),
    id: id('The product, order, user, wallet or settings record acted on'),
    label: text().describe('What an admin reads for it: a product name, an e-mail, a payment method'),
  }),
  before: fieldValues('The changed fields before the action; null when it created the target'),
  after: fieldValues('The changed fields after the action; null when it deleted the target'),
});

export type AdminActionData = z.infer<typeof adminActionData>;

export type AdminActionEvent = EventEnvelope<typeof ADMIN_ACTION, AdminActionData>;
