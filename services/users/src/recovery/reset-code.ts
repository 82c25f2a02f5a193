import { randomInt } from 'node:crypto';

/** A reset code lives this long. */
export const RESET_CODE_TTL_MS = 10 * 60_000;

/** Wrong tries after which a reset code is dead. */
export const RESET_CODE_MAX_ATTEMPTS = 5;

/** A uniformly random 6-digit code, leading zeros kept. */
export function newResetCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, '0');
}
