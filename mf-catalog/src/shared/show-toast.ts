// react-toastify is fetched with the first toast, not with the screen: a grid shows none until a shopper
// adds to the cart, and the library is no part of the first screen's download. It is the shared singleton
// the shell's container listens to, however it is imported.
// The shell has the same few lines (shell/src/shared/toasts.tsx). They are not in @shop/state on purpose:
// @shop/state is a shared singleton of one version (0.1.0) for every build, so the copy a page runs is
// the one the shell brought, and a remote cannot count on an export newer than the oldest shell it runs
// under (e2e/tests/compatibility.spec.ts).
// Types only (erased): the library itself is imported on demand below.
import type * as ReactToastify from 'react-toastify';

type Toastify = typeof ReactToastify;

let toastify: Promise<Toastify> | undefined;

/** Shows a toast, fetching the library first if needed. */
export function showToast(kind: 'success' | 'warning' | 'error', message: string): void {
  toastify ??= import('react-toastify');
  void toastify
    .then(({ toast }) => toast[kind](message))
    .catch((error: unknown) => console.error(`Could not show the toast "${message}"`, error));
}
