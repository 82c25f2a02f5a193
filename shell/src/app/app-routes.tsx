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
];

/**
 * The route table (docs/product/screens.md, "Route table"): which screen comes from which remote, behind
 * which guard.
 */
export function AppRoutes() {
  return (
    <Suspense fallback={<LoadingBox />}>
      <Routes>
        <Route path="/" element={remote('catalog/HomePage')} />
        <Route path="/product/:slug" element={remote('catalog/ProductPage')} />
        <Route path="/search" element={remote('catalog/SearchPage')} />
        <Route path="/category/:category" element={remote('catalog/CategoryPage')} />
        <Route path="/about/*" element={remote('catalog/AboutPage')} />
        <Route path="/legal" element={remote('catalog/LegalPage')} />

        <Route path="/cart" element={remote('checkout/CartPage')} />
        <Route element={<RequireSignedIn />}>
          <Route path="/shipping" element={remote('checkout/ShippingPage')} />
          <Route path="/payment" element={remote('checkout/PaymentPage')} />
          <Route path="/placeorder" element={remote('checkout/PlaceOrderPage')} />
          <Route path="/order/:id" element={remote('checkout/OrderPage')} />
          <Route path="/orderhistory" element={remote('checkout/OrderHistoryPage')} />
          <Route path="/profile" element={<ProfilePage />} />
        </Route>

        <Route element={<RequireAdmin />}>
          {ADMIN_ROUTES.map(([path, exposed]) => (
            <Route key={path} path={path} element={remote(exposed)} />
          ))}
        </Route>

        <Route path="/signin" element={<SignInPage />} />
        <Route path="/signup" element={<SignUpPage />} />
        <Route path="/forgot-password" element={<ForgotPasswordPage />} />
        <Route path="/reset-password" element={<ResetPasswordPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </Suspense>
  );
}
