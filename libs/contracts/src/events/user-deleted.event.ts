import { z } from 'zod';
import { id } from '../messages/fields';
import type { EventEnvelope } from './event-envelope';

export const USER_DELETED = 'user.deleted';

/** An admin deleted an account: every service refuses its tokens from now on. */
export const userDeletedData = z.strictObject({
  userId: id('The deleted account: its tokens are refused from now on'),
});

export type UserDeletedEvent = EventEnvelope<typeof USER_DELETED, z.infer<typeof userDeletedData>>;
