import type { UserRecord } from './user.schema';

/** A user as the admin list shows it (spec §3): never a hash, a code or the outbox. */
export interface UserSummary {
  _id: string;
  name: string;
  email: string;
  isAdmin: boolean;
}

/** What sign-in, sign-up and a profile update answer: the storefront keeps it as `userInfo`. */
export interface UserInfo extends UserSummary {
  token: string;
}

/** A plain answer to a call whose result is only a confirmation. */
export interface Confirmation {
  message: string;
}

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
