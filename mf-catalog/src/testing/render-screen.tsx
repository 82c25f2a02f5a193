import { siteSettingsAtom } from '@shop/state';
import { render } from '@testing-library/react';
import { Provider, createStore } from 'jotai';
import { type ReactElement, useEffect } from 'react';
import { MemoryRouter, Route, Routes, useLocation, useNavigate } from 'react-router-dom';
import { ToastContainer } from 'react-toastify';

/** Where the router is now, for tests that follow navigation. */
export const currentLocation: { path: string; hash: string } = { path: '', hash: '' };

/** Records the location, and offers the browser's Back button to the test. */
function LocationProbe() {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    currentLocation.path = location.pathname + location.search;
    currentLocation.hash = location.hash;
  }, [location]);
  return (
    <button type="button" onClick={() => void navigate(-1)}>
      Browser back
    </button>
  );
}

/**
 * Renders a screen on its route as the shell would place it: one jotai store with the site settings,
 * a router starting at `url`, and the toast container. Other paths render a marker naming them.
 */
export function renderScreen(screen: ReactElement, options: { path: string; url: string }) {
  const store = createStore();
  store.set(siteSettingsAtom, { websiteName: 'Glock Store', currency: '$', logo: '' });
  const view = render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[options.url]}>
        <Routes>
          <Route path={options.path} element={screen} />
          <Route path="*" element={<p>Elsewhere</p>} />
        </Routes>
        <LocationProbe />
        <ToastContainer />
      </MemoryRouter>
    </Provider>,
  );
  return { store, ...view };
}
