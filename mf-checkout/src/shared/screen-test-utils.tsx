import { render } from '@testing-library/react';
import { Provider, createStore } from 'jotai';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { ToastContainer } from 'react-toastify';
import { vi } from 'vitest';

type Store = ReturnType<typeof createStore>;

/** Where the screen navigated to, for the test to read (`screen.getByTestId('location')`). */
function CurrentLocation() {
  const { pathname, search } = useLocation();
  return <div data-testid="location">{pathname + search}</div>;
}

/**
 * Renders one checkout screen at `url` (matched by `path`) with its own jotai store, the toasts, and a
 * probe that shows the location any navigation leads to.
 */
export function renderScreen(
  screenElement: ReactElement,
  { url, path = url, store = createStore() }: { url: string; path?: string; store?: Store },
) {
  render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path={path} element={screenElement} />
          <Route path="*" element={null} />
        </Routes>
        <CurrentLocation />
        <ToastContainer />
      </MemoryRouter>
    </Provider>,
  );
  return store;
}

/** A JSON answer as the gateway sends it. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

type Handler = (url: string, init: RequestInit) => Response | Promise<Response>;

/** Stubs `fetch` with `handler`; the mock records every call (url, init). */
export function stubFetch(handler: Handler) {
  const fetchMock = vi.fn<(url: string, init: RequestInit) => Promise<Response>>(async (url, init) =>
    handler(url, init ?? {}),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}
