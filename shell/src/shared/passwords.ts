import { useState } from 'react';
import { toast } from 'react-toastify';
import type { NewPasswordFieldsProps } from './text-field';

/**
 * Sign-up, profile and reset refuse two different password entries with this toast
 * (docs/product/rules.md, "Validation"; docs/product/messages.md, "Shopper toasts").
 */
export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match';

/** Whether the two entries differ; if so the shopper is told, and the form is not sent. */
export function passwordsDiffer(password: string, confirmation: string): boolean {
  if (password === confirmation) return false;
  toast.error(PASSWORDS_DO_NOT_MATCH);
  return true;
}

/**
 * A new password and its confirmation, as sign-up, reset and profile keep them: `fields` goes to
 * NewPasswordFields, `differ` is checked before the form is sent, `clear` empties both after a save.
 */
export function useNewPassword() {
  const [password, onPassword] = useState('');
  const [confirmation, onConfirmation] = useState('');
  const fields: Pick<NewPasswordFieldsProps, 'password' | 'confirmation' | 'onPassword' | 'onConfirmation'> =
    {
      password,
      confirmation,
      onPassword,
      onConfirmation,
    };
  return {
    fields,
    differ: () => passwordsDiffer(password, confirmation),
    clear: () => {
      onPassword('');
      onConfirmation('');
    },
  };
}
