import { hintsPlaced } from './first-screen/hints-placed';

/** The longest the shell waits for the hints once its code has arrived (a slow answer must not hold it). */
const HINTS_WAIT_MAX_MS = 500;

/** Settles in a later task (a timer): what follows runs after the browser has had the main thread. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve));
}

// The first screen's calls and hints were started by the page itself, before this file arrived
// (first-screen/early-start.ts, inline in index.html). The shell starts once those hints are in the page
// (resumed in a task of their own, hints-placed.ts): its start-up is a few long tasks, and a hint placed
// behind them would wait for them, while the screen needs what the hints fetch (the remote's code, the
// pictures) as much as it needs the shell. The hints wait only for small answers the shell's code would
// wait for too (remotes.json, the remote's manifest, the catalogue).
void hintsPlaced(HINTS_WAIT_MAX_MS)
  // The shell's code is in this file already ("eager": no chunk of its own, one script for the first screen,
  // the shared libraries included: tools/webpack-preset/shared-dependencies.cjs). It is evaluated only now,
  // after the hints, and in three tasks, each in a task of its own even when the hints were placed long ago:
  // this file's evaluation, React DOM's, then the shell's start-up. In one task they blocked the main thread
  // for about 40-60 ms more (Lighthouse mobile's total blocking time on `/`, docs/performance.md).
  .then(nextTask)
  .then(() => import(/* webpackMode: "eager" */ 'react-dom/client'))
  .then(nextTask)
  .then(() => import(/* webpackMode: "eager" */ './bootstrap'))
  .catch((error: unknown) => {
    console.error('The shop failed to start', error);
  });
