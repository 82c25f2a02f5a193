import { LoadingBox } from '@shop/ui';
import { Suspense, lazy, type ComponentType } from 'react';
import { Route, Routes } from 'react-router-dom';
import { RequireAdmin } from '../features/auth/require-admin';
import { RequireSignedIn } from '../features/auth/require-signed-in';
import { RemoteRoute } from '../federation/remote-route';

/**
 * A screen of the shell in a chunk of its own: the first load of a storefront page carries none of the
 * account screens' code (their forms, validation and the profile's admin menu).
 */
function lazyScreen<Name extends string>(load: () => Promise<Record<Name, ComponentType>>, name: Name) {
  return lazy(async (): Promise<{ default: ComponentType }> => ({ default: (await load())[name] }));
}

const SignInPage = lazyScreen(() => import('../features/auth/signin-page'), 'SignInPage');
const SignUpPage = lazyScreen(() => import('../features/auth/signup-page'), 'SignUpPage');
const ForgotPasswordPage = lazyScreen(
  () => import('../features/auth/forgot-password-page'),
  'ForgotPasswordPage',
);
const ResetPasswordPage = lazyScreen(
  () => import('../features/auth/reset-password-page'),
  'ResetPasswordPage',
);
const ProfilePage = lazyScreen(() => import('../features/profile/profile-page'), 'ProfilePage');
const NotFoundPage = lazyScreen(() => import('../features/not-found/not-found-page'), 'NotFoundPage');

// Keyed by id so moving between two screens of the same remote starts the second one fresh.
const remote = (id: string) => <RemoteRoute key={id} id={id} />;

/**
 * The catalogue's screens (docs/product/screens.md, "Route table"), each a screen of mf-catalog: the pages
 * the shell's page server renders on the server (docs/decisions/0020), and the only indexable ones.
 */
export const CATALOG_ROUTES: ReadonlyArray<readonly [path: string, exposed: string]> = [
  ['/', 'catalog/HomePage'],
  ['/product/:slug', 'catalog/ProductPage'],
  ['/search', 'catalog/SearchPage'],
  ['/category/:category', 'catalog/CategoryPage'],
  ['/about/*', 'catalog/AboutPage'],
  ['/legal', 'catalog/LegalPage'],
];

/** The checkout's screens that need a signed-in shopper. */
const SIGNED_IN_ROUTES: ReadonlyArray<readonly [path: string, exposed: string]> = [
  ['/shipping', 'checkout/ShippingPage'],
  ['/payment', 'checkout/PaymentPage'],
  ['/placeorder', 'checkout/PlaceOrderPage'],
  ['/order/:id', 'checkout/OrderPage'],
  ['/orderhistory', 'checkout/OrderHistoryPage'],
];

/**
 * Admin screens (docs/product/screens.md, "Admin screens") and the mf-admin module of each; the remote is
 * registered for admins only.
 */
const ADMIN_ROUTES: ReadonlyArray<readonly [path: string, exposed: string]> = [
  ['/create-listing', 'admin/CreateListingPage'],
  ['/update/:productId', 'admin/UpdateProductPage'],
  ['/all-products', 'admin/AllProductsPage'],
  ['/all-orders', 'admin/AllOrdersPage'],
  ['/all-users', 'admin/AllUsersPage'],
  ['/wallet-update', 'admin/WalletUpdatePage'],
  ['/website-update', 'admin/WebsiteUpdatePage'],
  ['/audit-trail', 'admin/AuditTrailPage'],
  ['/fault-flags', 'admin/FaultFlagsPage'],
];

/** The shell's own screens anyone may open. */
const ACCOUNT_SCREENS: ReadonlyArray<readonly [path: string, screen: ComponentType]> = [
  ['/signin', SignInPage],
  ['/signup', SignUpPage],
  ['/forgot-password', ForgotPasswordPage],
  ['/reset-password', ResetPasswordPage],
];

/** Every path a screen answers; any other path is the not-found screen (a 404 from the page server). */
export const SCREEN_PATHS: readonly string[] = [
  ...CATALOG_ROUTES.map(([path]) => path),
  '/cart',
  ...SIGNED_IN_ROUTES.map(([path]) => path),
  '/profile',
  ...ADMIN_ROUTES.map(([path]) => path),
  ...ACCOUNT_SCREENS.map(([path]) => path),
];

/**
 * The route table (docs/product/screens.md, "Route table"): which screen comes from which remote, behind
 * which guard.
 */
export function AppRoutes() {
  return (
    <Suspense fallback={<LoadingBox />}>
      <Routes>
        {CATALOG_ROUTES.map(([path, exposed]) => (
          <Route key={path} path={path} element={remote(exposed)} />
        ))}

        <Route path="/cart" element={remote('checkout/CartPage')} />
        <Route element={<RequireSignedIn />}>
          {SIGNED_IN_ROUTES.map(([path, exposed]) => (
            <Route key={path} path={path} element={remote(exposed)} />
          ))}
          <Route path="/profile" element={<ProfilePage />} />
        </Route>

        <Route element={<RequireAdmin />}>
          {ADMIN_ROUTES.map(([path, exposed]) => (
            <Route key={path} path={path} element={remote(exposed)} />
          ))}
        </Route>

        {ACCOUNT_SCREENS.map(([path, Screen]) => (
          <Route key={path} path={path} element={<Screen />} />
        ))}
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </Suspense>
  );
}
