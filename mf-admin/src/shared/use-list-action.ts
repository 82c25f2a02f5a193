import { showToast, useAction } from '@shop/ui';

/** Runs `call` as the action on row `id`, toasting `done` when it succeeds. */
export type ListAct = (id: string, call: () => Promise<unknown>, done: string) => Promise<void>;

/**
 * An admin action on one row of a list: the call, its success toast, then the list refreshed in place
 * (docs/product/screens.md, "Admin lists"; docs/product/messages.md, "Admin toasts"); a refusal is an
 * error toast with the server's message (useAction). `busy` is the id of the row being worked on, so its
 * buttons wait.
 */
export function useListAction(reload: () => void): { busy: string | undefined; act: ListAct } {
  const { running, run } = useAction<string>();

  const act: ListAct = (id, call, done) =>
    run(
      async () => {
        await call();
        showToast('success', done);
        reload();
      },
      { key: id },
    );

  return { busy: running, act };
}
