import { shopStore } from '@shop/state';
import { Provider } from 'jotai';
import { BrowserRouter } from 'react-router-dom';
import { Layout } from '../features/layout/layout';
import { AppRoutes } from './app-routes';

/** The layout around the routes: what the page server renders, and the browser renders or hydrates. */
export function Storefront() {
  return (
    <Layout>
      <AppRoutes />
    </Layout>
  );
}

/** The whole storefront in the browser: one jotai store for every remote, the router, the storefront. */
export function App() {
  return (
    <Provider store={shopStore}>
      <BrowserRouter>
        <Storefront />
      </BrowserRouter>
    </Provider>
  );
}
