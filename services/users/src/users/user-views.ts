import type { UserSummary } from '@shop/contracts';
import type { UserRecord } from './user.schema';

export type StoredUser = Pick<UserRecord, 'name' | 'email' | 'isAdmin' | 'sessionsValidFrom'> & {
  _id: unknown;
};

/** Picks the public fields, so nothing else can leak into an answer. */
export function toSummary(user: StoredUser): UserSummary {
  return { _id: String(user._id), name: user.name, email: user.email, isAdmin: user.isAdmin };
}

/** The `sessionsValidFrom` for a password reset or change made now: later than any older token. */
export function sessionsValidFromNow(): number {
  return Math.floor(Date.now() / 1_000) + 1;
}
