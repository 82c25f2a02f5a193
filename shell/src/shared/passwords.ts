/** Spec §5 and §8: sign-up, profile and reset refuse two different password entries with this toast. */
export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match';
