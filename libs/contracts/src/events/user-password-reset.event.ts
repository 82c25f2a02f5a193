import type { EventEnvelope } from './event-envelope';

export const USER_PASSWORD_RESET = 'user.password-reset';

/**
 * An account's password was reset with a one-time code (`via: 'reset'`) or changed on the profile
 * (`via: 'profile'`): every token issued before `sessionsValidFrom` is refused from now on.
 */
export type UserPasswordResetEvent = EventEnvelope<
  typeof USER_PASSWORD_RESET,
  {
    userId: string;
    /** Seconds since the epoch (the unit of a token's `iat`): tokens issued earlier are refused. */
    sessionsValidFrom: number;
    via: 'reset' | 'profile';
  }
>;
