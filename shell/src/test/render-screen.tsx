import { render } from '@testing-library/react';
import { Provider, createStore } from 'jotai';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation, type InitialEntry } from 'react-router-dom';
import { ToastContainer } from 'react-toastify';
import { vi } from 'vitest';

/** Where the router is now, for assertions on navigation. */
function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname + location.search}</p>;
}

/** Renders one screen at `path` inside a router, a fresh store and the toast container. */
export function renderScreen(
  path: string,
  screen: ReactElement,
  options: { at?: InitialEntry; store?: ReturnType<typeof createStore> } = {},
) {
  const store = options.store ?? createStore();
  render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[options.at ?? path]}>
        <Routes>
          <Route path={path} element={screen} />
          <Route path="*" element={<Where />} />
        </Routes>
        <ToastContainer />
      </MemoryRouter>
    </Provider>,
  );
  return store;
}

/** A recorded call of the stubbed `fetch`. */
export interface Call {
  url: string;
  method: string;
  body: unknown;
}

/** Stubs `fetch` with one answer per path and records what was sent. */
export function answer(routes: Record<string, { status: number; body: unknown }>): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push({
        url,
        method: init?.method ?? 'GET',
        body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
      });
      const reply = routes[url] ?? { status: 404, body: { message: 'Not found' } };
      return new Response(JSON.stringify(reply.body), { status: reply.status });
    }),
  );
  return calls;
}
