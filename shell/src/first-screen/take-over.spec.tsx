import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { takeOver } from './take-over';

/** What happened, in order: each part's render in the browser, and another task's turn. */
let log: string[] = [];
let inBrowser = false;

/** Keeps the main thread busy for `ms`, as rendering does. */
function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** A part whose render in the browser takes 2 ms, as a page's cards and menus together do on a phone. */
function Part({ n }: { n: number }) {
  if (inBrowser) {
    log.push('render');
    busyFor(2);
  }
  return <li>part {n}</li>;
}

const page = (
  <ul>
    {Array.from({ length: 60 }, (_, n) => (
      <Part key={n} n={n} />
    ))}
  </ul>
);

/** Hydrates the server's HTML of `page` with `start`, and answers the log once every part has rendered. */
async function hydrateWith(start: (container: Element) => void): Promise<string[]> {
  const container = document.createElement('div');
  container.innerHTML = renderToString(page);
  document.body.append(container);
  inBrowser = true;
  start(container);
  // Another task, queued as hydration starts: where it lands in the log says whether hydration let it run.
  setTimeout(() => log.push('other task'), 0);
  while (log.filter((entry) => entry === 'render').length < 60) await new Promise((r) => setTimeout(r, 5));
  return log;
}

describe('takeOver', () => {
  // React's own scheduling, as in the browser: not the test helpers' act() queue, which runs work at once.
  beforeAll(() => {
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
  });
  afterEach(() => {
    log = [];
    inBrowser = false;
    document.body.innerHTML = '';
  });

  it('hydrates in slices, letting other tasks run before the page is all taken over', async () => {
    const seen = await hydrateWith((container) => takeOver(container, page, {}));
    const other = seen.indexOf('other task');
    expect(other).toBeGreaterThan(0);
    expect(other).toBeLessThan(seen.lastIndexOf('render'));
  });

  it('is needed: a plain hydrateRoot renders the whole page in one task', async () => {
    const seen = await hydrateWith((container) => hydrateRoot(container, page));
    const other = seen.indexOf('other task');
    expect(other === -1 || other === 0 || other > seen.lastIndexOf('render')).toBe(true);
  });
});
