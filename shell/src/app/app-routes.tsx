import { Route, Routes } from 'react-router-dom';
import { RequireAdmin } from '../features/auth/require-admin';
import { RequireSignedIn } from '../features/auth/require-signed-in';
import { SignInPage } from '../features/auth/signin-page';
import { NotFoundPage } from '../features/placeholder/not-found-page';
import { PlaceholderPage } from '../features/placeholder/placeholder-page';
import { RemoteRoute } from '../federation/remote-route';

// Keyed by id so moving between two screens of the same remote starts the second one fresh.
const remote = (id: string) => <RemoteRoute key={id} id={id} />;

const ADMIN_PATHS = [
  '/create-listing',
  '/all-products',
  '/update/:productId',
  '/all-orders',
  '/all-users',
  '/wallet-update',
  '/website-update',
];

/** The route table of spec §2: which screen comes from which remote, behind which guard. */
export function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={remote('catalog/HomePage')} />
      {/* Catalogue screens not exposed by mf-catalog yet. */}
      <Route path="/product/:slug" element={<PlaceholderPage title="Product" />} />
      <Route path="/search" element={<PlaceholderPage title="Search results" />} />
      <Route path="/category/:category" element={<PlaceholderPage title="Category" />} />
      <Route path="/about/*" element={<PlaceholderPage title="About us" />} />
      <Route path="/legal" element={<PlaceholderPage title="Terms and Conditions" />} />

      <Route path="/cart" element={remote('checkout/CartPage')} />
      <Route element={<RequireSignedIn />}>
        <Route path="/shipping" element={remote('checkout/ShippingPage')} />
        <Route path="/payment" element={remote('checkout/PaymentPage')} />
        <Route path="/placeorder" element={remote('checkout/PlaceOrderPage')} />
        <Route path="/order/:id" element={remote('checkout/OrderPage')} />
        <Route path="/orderhistory" element={remote('checkout/OrderHistoryPage')} />
        <Route path="/profile" element={<PlaceholderPage title="User Profile" />} />
      </Route>

      <Route element={<RequireAdmin />}>
        {ADMIN_PATHS.map((path) => (
          <Route key={path} path={path} element={remote('admin/AdminHome')} />
        ))}
      </Route>

      <Route path="/signin" element={<SignInPage />} />
      <Route path="/signup" element={<PlaceholderPage title="Sign Up" />} />
      <Route path="/forgot-password" element={<PlaceholderPage title="Forgot Password" />} />
      <Route path="/reset-password" element={<PlaceholderPage title="Reset Password" />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}
