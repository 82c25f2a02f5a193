import { shopStore } from '@shop/state';
import { Provider } from 'jotai';
import { BrowserRouter } from 'react-router-dom';
import { Layout } from '../features/layout/layout';
import { AppRoutes } from './app-routes';

/** The whole storefront: one jotai store for every remote, the router, the layout around the routes. */
export function App() {
  return (
    <Provider store={shopStore}>
      <BrowserRouter>
        <Layout>
          <AppRoutes />
        </Layout>
      </BrowserRouter>
    </Provider>
  );
}
