import { isAdminAtom } from '@shop/state';
import { useAtomValue } from 'jotai';
import { Navigate, Outlet } from 'react-router-dom';

/**
 * Admin routes (docs/product/screens.md, "Route table"): anyone else is sent to /signin, and the admin
 * remote is never requested.
 */
export function RequireAdmin() {
  const isAdmin = useAtomValue(isAdminAtom);
  return isAdmin ? <Outlet /> : <Navigate to="/signin" replace />;
}
