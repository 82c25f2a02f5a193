// The inline start (first-screen/early-start.ts) and the shell's federation runtime are bundled apart: they
// meet on a global symbol. Like prefetch.ts, this module stands alone (no imports).
const STARTED_SCRIPTS = Symbol.for('shop.started-remote-scripts');

type Registry = Map<string, Promise<void>>;

function registry(): Registry {
  const global = globalThis as typeof globalThis & { [STARTED_SCRIPTS]?: Registry };
  return (global[STARTED_SCRIPTS] ??= new Map());
}

/**
 * Runs one of a remote's scripts as soon as it arrives, instead of preloading it and running it once the shell's
 * code has started and asked for it: its evaluation then happens while the page still waits for the shell's
 * framework code, not after it. Only for scripts that need nothing at that point: a `global` remote entry (it
 * defines `window[globalName]`, which the federation runtime then uses, early-remote-entry.runtime-plugin.ts)
 * and the remote's chunks (each registers its modules with the remote's webpack runtime, which loads a chunk
 * only once; while this script is still on its way, the runtime reuses its element instead of fetching again).
 */
export function startRemoteScript(href: string): void {
  const scripts = registry();
  if (scripts.has(href)) return;
  const script = document.createElement('script');
  script.src = href;
  script.async = true;
  // As the preload hint it replaces asked for it: an async script would otherwise be fetched at low priority.
  script.setAttribute('fetchpriority', 'high');
  scripts.set(
    href,
    new Promise<void>((resolve) => {
      // Once run (or failed), the element leaves the page, as the runtime's own script elements do: a later
      // load of the same file then never waits on an element whose load event has passed.
      const settle = () => {
        script.remove();
        resolve();
      };
      script.addEventListener('load', settle, { once: true });
      script.addEventListener('error', settle, { once: true });
    }),
  );
  document.head.append(script);
}

/**
 * Settles once the script started for this URL has run or failed; undefined when none was started or it was
 * taken already (a later load, e.g. a retry after a failure, loads the file the runtime's own way).
 */
export function takeStartedRemoteScript(href: string): Promise<void> | undefined {
  const scripts = registry();
  const started = scripts.get(href);
  scripts.delete(href);
  return started;
}
