import { render } from '@testing-library/react';
import { Provider, createStore } from 'jotai';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { ToastContainer } from 'react-toastify';

/** Shows where the router is, so a test can read a navigation. */
function Location() {
  const { pathname, search } = useLocation();
  return <div data-testid="location">{pathname + search}</div>;
}

/**
 * Renders one admin screen as the shell would: in a jotai store, under its route, beside the toast
 * area; `/` renders a stand-in home page so a navigation there can be seen.
 */
export function renderScreen(
  screen: ReactNode,
  options: { path: string; url?: string; store?: ReturnType<typeof createStore> },
) {
  const store = options.store ?? createStore();
  const view = render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[options.url ?? options.path]}>
        <Routes>
          <Route path={options.path} element={screen} />
          <Route path="/" element={<h1>Home</h1>} />
        </Routes>
        <Location />
        <ToastContainer />
      </MemoryRouter>
    </Provider>,
  );
  return { ...view, store };
}
