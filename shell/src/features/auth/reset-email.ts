/**
 * The address of the forgot-password step, handed to the reset step: in the navigation's state, and in
 * this tab's session storage so a reload of the reset page keeps it. Never in the URL (it would sit in
 * the history and in logs).
 */
const KEY = 'passwordResetEmail';

export function rememberResetEmail(email: string): void {
  try {
    sessionStorage.setItem(KEY, email);
  } catch {
    // Storage may be unavailable (private mode); the reset page then asks for the address.
  }
}

export function recalledResetEmail(state: unknown): string {
  const fromState = (state as { email?: unknown } | null)?.email;
  if (typeof fromState === 'string' && fromState !== '') return fromState;
  try {
    return sessionStorage.getItem(KEY) ?? '';
  } catch {
    return '';
  }
}

export function forgetResetEmail(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing was kept.
  }
}
