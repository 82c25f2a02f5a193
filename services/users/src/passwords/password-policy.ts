import { dictionary } from '@zxcvbn-ts/language-common';

const PASSWORD_MIN_LENGTH = 8;
// argon2 would hash megabytes happily; a bound keeps one request from costing much.
export const PASSWORD_MAX_LENGTH = 256;

// zxcvbn-ts's ranked list of about 49,000 passwords seen most often in breaches.
const COMMON_PASSWORDS = new Set(dictionary['passwords-common'].map((entry) => entry.toLowerCase()));

/** Whether a password is one of the most common ones, ignoring case. */
export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.toLowerCase());
}

/** Why a password is not acceptable, or undefined when it is. */
export function passwordProblem(password: string): string | undefined {
  if ([...password].length < PASSWORD_MIN_LENGTH) {
    return `password must be at least ${PASSWORD_MIN_LENGTH} characters`;
  }
  if (password.length > PASSWORD_MAX_LENGTH) {
    return `password must be at most ${PASSWORD_MAX_LENGTH} characters`;
  }
  if (isCommonPassword(password)) return 'password is too common, please choose another';
  return undefined;
}
