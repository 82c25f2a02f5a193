import { type ActionOptions, useAction } from '@shop/ui';
import type { FormEvent } from 'react';

/**
 * An admin form's submit: the browser's own submission prevented, then `task` run as the form's action
 * (useAction: not twice at once, a failure shown in the server's words); `busy` while it runs.
 */
export function useFormSubmit(task: () => Promise<void>, options?: ActionOptions<true>) {
  const { busy, run } = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(task, options);
  };
  return { busy, submit };
}
