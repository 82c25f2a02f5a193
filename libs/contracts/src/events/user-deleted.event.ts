import type { EventEnvelope } from './event-envelope';

export const USER_DELETED = 'user.deleted';

/** An admin deleted an account: every service refuses its tokens from now on. */
export type UserDeletedEvent = EventEnvelope<typeof USER_DELETED, { userId: string }>;
