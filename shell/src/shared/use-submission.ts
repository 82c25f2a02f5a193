import { errorMessage } from '@shop/ui';
import { useState } from 'react';
import { toast } from 'react-toastify';

/**
 * One form submission at a time: `submitting` while the action runs (the button waits), and a failure
 * shown as an error toast, in the server's words unless `failureMessage` says otherwise
 * (docs/product/messages.md, "Failed calls").
 */
export function useSubmission() {
  const [submitting, setSubmitting] = useState(false);

  const submit = async (
    action: () => Promise<void>,
    failureMessage: (error: unknown) => string = errorMessage,
  ): Promise<void> => {
    setSubmitting(true);
    try {
      await action();
    } catch (error) {
      toast.error(failureMessage(error));
    } finally {
      setSubmitting(false);
    }
  };

  return { submitting, submit };
}
