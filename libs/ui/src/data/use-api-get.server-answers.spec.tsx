import type { ServerAnswer } from '@shop/state/first-screen';
import { act, renderHook, waitFor } from '@testing-library/react';
import { Provider, createStore } from 'jotai';
import { StrictMode, type ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { serverAnswersAtom, unansweredReadsAtom } from '../first-screen/server-answers.atoms';
import { type StubAnswer, stubApi } from '../testing';
import { useApiGet } from './use-api-get';

afterEach(() => vi.unstubAllGlobals());

/** The network, answering by path and query (anything else: 404). */
const network = (byUrl: Record<string, StubAnswer>) => stubApi((call) => byUrl[call.url]);

const LIST = '/api/products?page=1';
const PRODUCT = '/api/products/slug/ar-15';
const GONE = '/api/products/slug/gone';

const answers: Record<string, ServerAnswer> = {
  [LIST]: { status: 200, ok: true, data: ['from the page'], headers: { 'x-total-count': '42' } },
  [GONE]: { status: 404, ok: false, message: 'Product Not Found' },
};

/** A store as the browser's is after reading a server-rendered page's data block. */
function storeWith(served: Record<string, ServerAnswer>) {
  const store = createStore();
  store.set(serverAnswersAtom, { ...served });
  return store;
}

const inStore =
  (store: ReturnType<typeof createStore>) =>
  ({ children }: { children: ReactNode }) => <Provider store={store}>{children}</Provider>;

/** What a screen shows of a read: enough for a server render and a hydration to be compared. */
function Shown({ path }: { path: string }) {
  const read = useApiGet<string[]>(path);
  if (read.status === 'loading') return <p>loading</p>;
  if (read.status === 'failed') return <p role="alert">{`${read.httpStatus}: ${read.message}`}</p>;
  return (
    <ul data-total={read.response.headers.get('X-Total-Count') ?? ''}>
      {read.response.data.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  );
}

describe('useApiGet on a page rendered on the server', () => {
  it("starts from the server's answer, with its status and kept headers, without asking again", async () => {
    const api = network({ [LIST]: { body: ['from the network'] } });
    const { result } = renderHook(() => useApiGet<string[]>(LIST), { wrapper: inStore(storeWith(answers)) });
    // The first render already holds it: that is what hydration compares with the server's HTML.
    expect(result.current).toMatchObject({ status: 'loaded', refreshing: false, response: { status: 200 } });
    const loaded = result.current.status === 'loaded' ? result.current.response : undefined;
    expect(loaded?.data).toEqual(['from the page']);
    expect(loaded?.headers.get('X-Total-Count')).toBe('42');
    await act(async () => undefined);
    expect(api.calls).toEqual([]);
    expect(result.current).toMatchObject({ status: 'loaded', response: { data: ['from the page'] } });
  });

  it("starts from the server's refusal as the failure the browser would show", async () => {
    const api = network({});
    const { result } = renderHook(() => useApiGet(GONE), { wrapper: inStore(storeWith(answers)) });
    expect(result.current).toMatchObject({ status: 'failed', message: 'Product Not Found', httpStatus: 404 });
    await act(async () => undefined);
    expect(api.calls).toEqual([]);
  });

  it('uses an answer once: it leaves the store, the others stay, and a later visit asks afresh', async () => {
    const api = network({ [LIST]: { body: ['from the network'] } });
    const store = storeWith(answers);
    const first = renderHook(() => useApiGet<string[]>(LIST), { wrapper: inStore(store) });
    await act(async () => undefined);
    expect(Object.keys(store.get(serverAnswersAtom))).toEqual([GONE]);
    first.unmount();

    const later = renderHook(() => useApiGet<string[]>(LIST), { wrapper: inStore(store) });
    expect(later.result.current.status).toBe('loading');
    await waitFor(() =>
      expect(later.result.current).toMatchObject({
        status: 'loaded',
        response: { data: ['from the network'] },
      }),
    );
    expect(api.urls()).toEqual([LIST]);
  });

  it('takes no answer in strict mode twice over, and asks nothing', async () => {
    const api = network({ [LIST]: { body: ['from the network'] } });
    const store = storeWith(answers);
    const { result } = renderHook(() => useApiGet<string[]>(LIST), {
      wrapper: ({ children }) => (
        <StrictMode>
          <Provider store={store}>{children}</Provider>
        </StrictMode>
      ),
    });
    await act(async () => undefined);
    expect(result.current).toMatchObject({ status: 'loaded', response: { data: ['from the page'] } });
    expect(api.calls).toEqual([]);
  });

  it('fetches a path the page has no answer for, and a reload asks the network', async () => {
    const api = network({
      [PRODUCT]: { body: ['product'] },
      [LIST]: { body: ['fresh'], headers: { 'X-Total-Count': '43' } },
    });
    const product = renderHook(() => useApiGet<string[]>(PRODUCT), { wrapper: inStore(storeWith(answers)) });
    expect(product.result.current.status).toBe('loading');
    await waitFor(() => expect(product.result.current).toMatchObject({ response: { data: ['product'] } }));

    const list = renderHook(() => useApiGet<string[]>(LIST), { wrapper: inStore(storeWith(answers)) });
    act(() => list.result.current.reload());
    expect(list.result.current).toMatchObject({ refreshing: true, response: { data: ['from the page'] } });
    await waitFor(() =>
      expect(list.result.current).toMatchObject({ refreshing: false, response: { data: ['fresh'] } }),
    );
    expect(api.urls()).toEqual([PRODUCT, LIST]);
  });

  it('leaves the served answer when the screen moves to another path', async () => {
    const api = network({ '/api/products?page=2': { body: ['page two'] } });
    const { result, rerender } = renderHook(({ path }) => useApiGet<string[]>(path), {
      initialProps: { path: LIST },
      wrapper: inStore(storeWith(answers)),
    });
    rerender({ path: '/api/products?page=2' });
    expect(result.current).toMatchObject({ status: 'loading', previous: { data: ['from the page'] } });
    await waitFor(() => expect(result.current).toMatchObject({ response: { data: ['page two'] } }));
    expect(api.urls()).toEqual(['/api/products?page=2']);
  });
});

describe('useApiGet while the server renders', () => {
  /** One server round: the store's answers and a set collecting the reads still unanswered. */
  function serverRender(served: Record<string, ServerAnswer>, paths: string[]) {
    const store = storeWith(served);
    const unanswered = new Set<string>();
    store.set(unansweredReadsAtom, unanswered);
    const html = renderToString(
      <Provider store={store}>
        {paths.map((path) => (
          <Shown key={path} path={path} />
        ))}
      </Provider>,
    );
    return { html, unanswered: [...unanswered] };
  }

  it('draws the answers it has and records the paths it had none for', () => {
    const api = network({});
    const { html, unanswered } = serverRender(answers, [LIST, GONE, PRODUCT]);
    expect(html).toContain('<li>from the page</li>');
    expect(html).toContain('data-total="42"');
    expect(html).toContain('404: Product Not Found');
    expect(html).toContain('loading');
    expect(unanswered).toEqual([PRODUCT]);
    expect(api.calls).toEqual([]);
  });

  it('records nothing when every read is answered, and nothing for a read without a path', () => {
    expect(serverRender(answers, [LIST]).unanswered).toEqual([]);
    const store = createStore();
    const unanswered = new Set<string>();
    store.set(unansweredReadsAtom, unanswered);
    function NoPath() {
      useApiGet(null);
      return null;
    }
    renderToString(
      <Provider store={store}>
        <NoPath />
      </Provider>,
    );
    expect([...unanswered]).toEqual([]);
  });

  it('in the browser (no set of unanswered reads) just fetches', async () => {
    const api = network({ [PRODUCT]: { body: ['product'] } });
    const store = createStore();
    expect(store.get(unansweredReadsAtom)).toBeNull();
    const { result } = renderHook(() => useApiGet<string[]>(PRODUCT), { wrapper: inStore(store) });
    await waitFor(() => expect(result.current).toMatchObject({ response: { data: ['product'] } }));
    expect(api.urls()).toEqual([PRODUCT]);
  });

  it("hydrates the server's HTML with the same answers: no mismatch and no second read", async () => {
    const api = network({ [LIST]: { body: ['from the network'] } });
    const { html } = serverRender(answers, [LIST, GONE]);
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const recoverable = vi.fn();
    const root = await act(async () =>
      hydrateRoot(
        container,
        <Provider store={storeWith(answers)}>
          <Shown path={LIST} />
          <Shown path={GONE} />
        </Provider>,
        { onRecoverableError: recoverable },
      ),
    );
    expect(recoverable).not.toHaveBeenCalled();
    expect(container.innerHTML).toBe(html);
    expect(api.calls).toEqual([]);
    act(() => root.unmount());
    container.remove();
  });
});
