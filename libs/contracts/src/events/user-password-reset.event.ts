import { z } from 'zod';
import { count, id } from '../messages/fields';
import type { EventEnvelope } from './event-envelope';

export const USER_PASSWORD_RESET = 'user.password-reset';

/**
 * An account's password was reset with a one-time code (`via: 'reset'`) or changed on the profile
 * (`via: 'profile'`): every token issued before `sessionsValidFrom` (seconds since the epoch, the
 * unit of a token's `iat`) is refused from now on.
 */
export const userPasswordResetData = z.strictObject({
  userId: id('The account'),
  sessionsValidFrom: count('Seconds since the epoch: tokens issued earlier are refused'),
  via: z.enum(['reset', 'profile']),
});

export type UserPasswordResetEvent = EventEnvelope<
  typeof USER_PASSWORD_RESET,
  z.infer<typeof userPasswordResetData>
>;
