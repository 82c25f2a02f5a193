// The inline start (early-start.ts) and the shell's entry are bundled apart: they meet on a global symbol.
const HINTS_PLACED = Symbol.for('shop.first-screen-hints-placed');

type WithHints = typeof globalThis & { [HINTS_PLACED]?: Promise<unknown> };

/**
 * Records the first screen's preload hints as in progress; `placing` settles once all are in the page.
 * Whoever waits for them is resumed in a task of its own (a timer), not in the one that placed the last
 * hint: the shell's start-up that follows is long, and the hints' requests must not look as if they
 * waited for it (Lighthouse links a request to the task that sent it and to everything else that task ran).
 */
export function markHintsPlacing(placing: Promise<unknown>): void {
  (globalThis as WithHints)[HINTS_PLACED] = placing
    .catch(() => undefined)
    .then(() => new Promise((resolve) => setTimeout(resolve)));
}

/**
 * Settles once the first screen's preload hints are in the page (at once when none were started), or after
 * `maxWaitMs` at the latest: a hint is an optimisation, and a call that hangs must not hold the shell back.
 */
export function hintsPlaced(maxWaitMs: number): Promise<unknown> {
  const placing = (globalThis as WithHints)[HINTS_PLACED];
  if (!placing) return Promise.resolve();
  return Promise.race([placing, new Promise((resolve) => setTimeout(resolve, maxWaitMs))]);
}
