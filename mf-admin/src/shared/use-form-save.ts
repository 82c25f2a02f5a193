import { errorMessage } from '@shop/ui';
import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';

/**
 * The save of an admin settings form (docs/product/messages.md, "Admin toasts"): `call` sends it, then the
 * success toast and `onSaved` with the server's answer; a refusal is an error toast with the server's
 * message. `saving` holds the form's buttons meanwhile.
 */
export function useFormSave<T>(call: () => Promise<T>, done: string, onSaved: (saved: T) => void) {
  const [saving, setSaving] = useState(false);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    try {
      const saved = await call();
      toast.success(done);
      onSaved(saved);
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setSaving(false);
    }
  };

  return { saving, save };
}
