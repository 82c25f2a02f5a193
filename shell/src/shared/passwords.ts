import { toast } from 'react-toastify';

/** Spec §5 and §8: sign-up, profile and reset refuse two different password entries with this toast. */
export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match';

/** Whether the two entries differ; if so the shopper is told, and the form is not sent. */
export function passwordsDiffer(password: string, confirmation: string): boolean {
  if (password === confirmation) return false;
  toast.error(PASSWORDS_DO_NOT_MATCH);
  return true;
}
