import { render } from '@testing-library/react';
import { Provider, createStore } from 'jotai';
import { type ReactElement, useEffect } from 'react';
import { MemoryRouter, Route, Routes, useLocation, useNavigate } from 'react-router-dom';
import { ToastContainer } from 'react-toastify';

type Store = ReturnType<typeof createStore>;

/** Where the router is now (path with query, and hash), and the browser's Back, for tests that navigate. */
export const currentLocation: { path: string; hash: string; back: () => void } = {
  path: '',
  hash: '',
  back: () => undefined,
};

/** Shows the location (`screen.getByTestId('location')`) and keeps `currentLocation` up to date. */
function LocationProbe() {
  const location = useLocation();
  const navigate = useNavigate();
  const path = location.pathname + location.search;
  useEffect(() => {
    currentLocation.path = path;
    currentLocation.hash = location.hash;
    currentLocation.back = () => void navigate(-1);
  }, [path, location.hash, navigate]);
  return <div data-testid="location">{path}</div>;
}

export interface RenderScreenOptions {
  /** The screen's route pattern (`/order/:id`); the URL's path when not given. */
  path?: string;
  /** Where the router starts; the route's path when not given. */
  url?: string;
  /** The jotai store the screen reads and writes; a fresh one when not given. */
  store?: Store;
}

/**
 * Renders one screen as the shell places it: in a jotai store, on its route inside a router, beside the
 * toast area. Any other path renders nothing, and the location probe shows where a navigation led.
 */
export function renderScreen(screen: ReactElement, options: RenderScreenOptions) {
  const url = options.url ?? options.path;
  const path = options.path ?? options.url;
  if (url === undefined || path === undefined) throw new Error('renderScreen needs a path or a url');
  const store = options.store ?? createStore();
  const view = render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path={path} element={screen} />
          <Route path="*" element={null} />
        </Routes>
        <LocationProbe />
        <ToastContainer />
      </MemoryRouter>
    </Provider>,
  );
  return { ...view, store };
}
