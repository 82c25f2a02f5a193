import { describe, expect, it } from 'vitest';
import { testProduct } from '../testing/products';
import { RenderCache, UnkeptFragment, idsIn, renderedFragment } from './render-cache';
import type { Fragment } from './render-fragment';

const fragmentShowing = (ids: string[], html = `<main>${ids.join(',')}</main>`): Fragment => ({
  version: '1.0.0',
  status: 200,
  head: '<title>t</title>',
  html,
  answers: {
    '/api/products?category=Pistols': {
      ok: true,
      status: 200,
      data: ids.map((id) => testProduct({ _id: id })),
    },
  },
});

/** A cache that is on, with a clock the test moves, and a render that counts its calls. */
function setup(options: { freshForMs?: number; staleWhileRevalidateMs?: number } = {}) {
  let now = 1_000;
  const cache = new RenderCache({ ...options, now: () => now });
  cache.setEnabled(true);
  let renders = 0;
  const render = (ids: string[]) => async () => {
    renders += 1;
    return fragmentShowing(ids, `<main>render ${renders}</main>`);
  };
  return {
    cache,
    render,
    renders: () => renders,
    advance: (ms: number) => (now += ms),
  };
}

describe('idsIn', () => {
  it('finds every _id of the answers, however deep, and nothing else', () => {
    expect([
      ...idsIn({ a: { ok: true, data: [{ _id: 'p1', category: { _id: 'c1' } }, { id: 'x' }] }, b: '_id' }),
    ]).toEqual(['p1', 'c1']);
  });
});

describe('renderedFragment', () => {
  it('serialises the fragment once, with a validator that changes with any byte of it', () => {
    const one = renderedFragment(fragmentShowing(['p1']), 5);
    expect(JSON.parse(one.body)).toEqual(fragmentShowing(['p1']));
    expect(one.etag).toMatch(/^"[\w-]{32}"$/);
    expect(renderedFragment(fragmentShowing(['p1']), 9).etag).toBe(one.etag);
    expect(renderedFragment(fragmentShowing(['p1'], '<main>p1 </main>'), 5).etag).not.toBe(one.etag);
    expect([...one.productIds]).toEqual(['p1']);
  });
});

describe('RenderCache', () => {
  it('renders every request while it is off (before the invalidation follows the changes)', async () => {
    const cache = new RenderCache();
    let renders = 0;
    const render = async () => fragmentShowing([`p${(renders += 1)}`]);
    expect((await cache.fragment('k', render)).status).toBe('off');
    expect((await cache.fragment('k', render)).status).toBe('off');
    expect(renders).toBe(2);
    expect(cache.size).toBe(0);
  });

  it('renders a request once and answers it again from memory, per key', async () => {
    const { cache, render, renders } = setup();
    const first = await cache.fragment('home', render(['p1']));
    const second = await cache.fragment('home', render(['p1']));
    expect([first.status, second.status]).toEqual(['miss', 'hit']);
    expect(second.rendered).toBe(first.rendered);
    expect((await cache.fragment('category', render(['p2']))).status).toBe('miss');
    expect(renders()).toBe(2);
  });

  it('shares one render among concurrent requests for the same screen', async () => {
    const { cache, render, renders } = setup();
    const answers = await Promise.all([1, 2, 3].map(() => cache.fragment('home', render(['p1']))));
    expect(renders()).toBe(1);
    expect(new Set(answers.map((answer) => answer.rendered.body)).size).toBe(1);
  });

  it('drops, on a stock change, the screens that showed one of those products and keeps the others', async () => {
    const { cache, render, renders } = setup();
    await cache.fragment('shows p1', render(['p1', 'p2']));
    await cache.fragment('shows p3', render(['p3']));
    cache.dropProducts(['p2']);
    expect((await cache.fragment('shows p3', render(['p3']))).status).toBe('hit');
    expect((await cache.fragment('shows p1', render(['p1', 'p2']))).status).toBe('miss');
    expect(renders()).toBe(3);
  });

  it('drops everything when anything may have changed, and when it is turned off', async () => {
    const { cache, render } = setup();
    await cache.fragment('a', render(['p1']));
    await cache.fragment('b', render(['p2']));
    cache.dropAll();
    expect(cache.size).toBe(0);
    await cache.fragment('a', render(['p1']));
    cache.setEnabled(false);
    expect(cache.size).toBe(0);
    cache.setEnabled(true);
    expect((await cache.fragment('a', render(['p1']))).status).toBe('miss');
  });

  it('never keeps a render that began before a change: it may show what changed', async () => {
    const { cache, renders } = setup();
    let finish!: (fragment: Fragment) => void;
    const slow = () => new Promise<Fragment>((resolve) => (finish = resolve));
    const during = cache.fragment('home', slow);
    cache.dropProducts(['p9']);
    // A request after the change does not join the render that began before it.
    const after = cache.fragment('home', async () => fragmentShowing(['p1'], '<main>after</main>'));
    finish(fragmentShowing(['p1'], '<main>before</main>'));
    expect((await during).status).toBe('miss');
    expect(JSON.parse((await after).rendered.body).html).toBe('<main>after</main>');
    const next = await cache.fragment('home', async () => fragmentShowing(['p1'], '<main>third</main>'));
    expect(next.status).toBe('hit');
    expect(JSON.parse(next.rendered.body).html).toBe('<main>after</main>');
    expect(renders()).toBe(0);
  });

  it('serves an entry past its freshness while rendering it again behind it, then the new render', async () => {
    const { cache, render, renders, advance } = setup({ freshForMs: 1_000, staleWhileRevalidateMs: 5_000 });
    const first = await cache.fragment('home', render(['p1']));
    advance(999);
    expect((await cache.fragment('home', render(['p1']))).status).toBe('hit');
    advance(2);
    const stale = await cache.fragment('home', render(['p1']));
    expect(stale.status).toBe('stale');
    expect(stale.rendered).toBe(first.rendered);
    await new Promise((resolve) => setImmediate(resolve));
    expect(renders()).toBe(2);
    const renewed = await cache.fragment('home', render(['p1']));
    expect(renewed.status).toBe('hit');
    expect(JSON.parse(renewed.rendered.body).html).toBe('<main>render 2</main>');
  });

  it('keeps serving the entry when the render behind it fails, and renders past the stale window', async () => {
    const { cache, render, renders, advance } = setup({ freshForMs: 1_000, staleWhileRevalidateMs: 5_000 });
    await cache.fragment('home', render(['p1']));
    advance(1_500);
    const failing = async (): Promise<Fragment> => {
      throw new Error('products is down');
    };
    expect((await cache.fragment('home', failing)).status).toBe('stale');
    await new Promise((resolve) => setImmediate(resolve));
    expect((await cache.fragment('home', failing)).status).toBe('stale');
    advance(5_000);
    await expect(cache.fragment('home', failing)).rejects.toThrow('products is down');
    expect((await cache.fragment('home', render(['p1']))).status).toBe('miss');
    expect(renders()).toBe(2);
  });

  it('answers a render it must not keep, keeps none of it, and serves the kept entry over it when revalidating', async () => {
    const { cache, advance } = setup({ freshForMs: 1_000 });
    const unkept = async () => new UnkeptFragment(fragmentShowing(['p1'], '<main>unstyled</main>'));
    const first = await cache.fragment('home', unkept);
    expect(first.status).toBe('miss');
    expect(JSON.parse(first.rendered.body)).toMatchObject({ html: '<main>unstyled</main>' });
    expect((await cache.fragment('home', unkept)).status).toBe('miss');
    expect(cache.size).toBe(0);

    await cache.fragment('home', async () => fragmentShowing(['p1'], '<main>styled</main>'));
    advance(1_500);
    expect((await cache.fragment('home', unkept)).status).toBe('stale');
    await new Promise((resolve) => setImmediate(resolve));
    const after = await cache.fragment('home', unkept);
    expect(after.status).toBe('stale');
    expect(JSON.parse(after.rendered.body)).toMatchObject({ html: '<main>styled</main>' });
  });

  it('lets the least recently used entries go past its byte bound', async () => {
    const cache = new RenderCache({ maxBytes: 1_500 });
    cache.setEnabled(true);
    const big = (id: string) => async () => fragmentShowing([id], `<main>${'x'.repeat(400)}</main>`);
    for (const id of ['a', 'b', 'c', 'd']) await cache.fragment(id, big(id));
    expect(cache.size).toBeLessThan(4);
    expect((await cache.fragment('d', big('d'))).status).toBe('hit');
    expect((await cache.fragment('a', big('a'))).status).toBe('miss');
  });
});
