import { useState } from 'react';
import { errorMessage } from '@shop/ui';
import { toast } from 'react-toastify';

/** Runs `call` as the action on row `id`, toasting `done` when it succeeds. */
export type ListAct = (id: string, call: () => Promise<unknown>, done: string) => Promise<void>;

/**
 * An admin action on one row of a list: the call, its success toast, then the list refreshed in place
 * (docs/product/screens.md, "Admin lists"; docs/product/messages.md, "Admin toasts"); a refusal is an
 * error toast with the server's message. `busy` is the id of the row being worked on, so its buttons wait.
 */
export function useListAction(reload: () => void): { busy: string | undefined; act: ListAct } {
  const [busy, setBusy] = useState<string>();

  const act: ListAct = async (id, call, done) => {
    setBusy(id);
    try {
      await call();
      toast.success(done);
      reload();
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setBusy(undefined);
    }
  };

  return { busy, act };
}
