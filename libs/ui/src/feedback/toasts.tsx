import { useEffect, useState, type ComponentProps, type ComponentType } from 'react';
// Types only (erased): the library itself is imported on demand below.
import type * as ReactToastify from 'react-toastify';

// react-toastify (~10 KB compressed, and the stylesheet it injects when evaluated) is no part of the
// first screen: toasts come after something happened. It is fetched with the first toast, at the
// shopper's first action on the page, or a few seconds after the page has loaded, whichever comes first;
// then the container mounts. Toasts shown before it is there wait in react-toastify's own queue and
// appear when it mounts, whichever module showed them (every remote imports the same shared singleton).
// @shop/ui is bundled into each front-end, not shared: a remote's copy of these lines fetches the same
// singleton, and the shell's container, which the shell mounts, shows its toasts.

type Toastify = typeof ReactToastify;
type ToastKind = 'info' | 'success' | 'warning' | 'error';
type ToastOptions = Parameters<Toastify['toast']['info']>[1];

let toastify: Promise<Toastify> | undefined;
/** Containers waiting for the page to load, told when a toast fetches the library first. */
const waiting = new Set<() => void>();

/** The toast library, fetched once. */
function loadToastify(): Promise<Toastify> {
  if (!toastify) {
    toastify = import('react-toastify');
    waiting.forEach((mount) => mount());
  }
  return toastify;
}

/** Shows a toast, fetching the library first if needed. */
export function showToast(kind: ToastKind, message: string, options?: ToastOptions): void {
  void loadToastify()
    .then(({ toast }) => toast[kind](message, options))
    .catch((error: unknown) => console.error(`Could not show the toast "${message}"`, error));
}

/** How long after the page's load event the container mounts anyway, when nothing has asked for it sooner. */
const MOUNT_AT_THE_LATEST_MS = 5000;
const SHOPPER_ACTIONS = ['pointerdown', 'keydown', 'touchstart'] as const;

/**
 * Runs `start` once, at the shopper's first action on the page (a toast follows something the shopper
 * did), or a while after the page has loaded: not during the first screen's load, which it would slow.
 */
function whenShopperActs(start: () => void): () => void {
  let timer: number | undefined;
  const run = () => {
    cancel();
    start();
  };
  const onLoad = () => {
    timer = window.setTimeout(run, MOUNT_AT_THE_LATEST_MS);
  };
  const cancel = () => {
    for (const action of SHOPPER_ACTIONS) window.removeEventListener(action, run, true);
    window.removeEventListener('load', onLoad);
    window.clearTimeout(timer);
  };
  for (const action of SHOPPER_ACTIONS)
    window.addEventListener(action, run, { capture: true, passive: true });
  if (document.readyState === 'complete') onLoad();
  else window.addEventListener('load', onLoad, { once: true });
  return cancel;
}

type ContainerProps = ComponentProps<Toastify['ToastContainer']>;

/** react-toastify's ToastContainer, mounted once the library is there (see above for when it is fetched). */
export function DeferredToastContainer(props: ContainerProps) {
  const [Container, setContainer] = useState<ComponentType<ContainerProps>>();

  useEffect(() => {
    let current = true;
    const mount = () =>
      void loadToastify().then(
        ({ ToastContainer }) => current && setContainer(() => ToastContainer),
        (error: unknown) => console.error('Could not load the toasts', error),
      );
    // A toast shown first (before or after this) has started the download: mount as soon as it is there.
    if (toastify) mount();
    else waiting.add(mount);
    const cancel = whenShopperActs(mount);
    return () => {
      current = false;
      waiting.delete(mount);
      cancel();
    };
  }, []);

  return Container ? <Container {...props} /> : null;
}
