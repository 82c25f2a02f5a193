import type { Schema } from '../http/api-types';

/**
 * Answers of `POST api/users/forgot-password` and `reset-password`: the users service sends them and the
 * reset screen recognises a refused code by its text, to show the shop's own message for it
 * (docs/product/messages.md, "Shopper toasts").
 */
export const PASSWORD_RECOVERY_MESSAGES = {
  /** The same for known and unknown addresses, so the form cannot be used to find accounts. */
  codeSent: 'If an account uses this email, a reset code has been sent to it',
  invalidCode: 'Invalid or expired reset code',
  passwordReset: 'Password reset successfully',
} as const;

/** Body of `POST api/users/reset-password`: the address the code was sent to, the code, the new password. */
export type ResetPasswordRequest = Schema<'ResetPasswordDto'>;
