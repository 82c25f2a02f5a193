import { userInfoAtom } from '@shop/state';
import { useAtomValue } from 'jotai';
import { Navigate, Outlet, useLocation } from 'react-router-dom';

/** Routes for signed-in users; others go to /signin and come back afterwards. */
export function RequireSignedIn() {
  const userInfo = useAtomValue(userInfoAtom);
  const location = useLocation();
  if (!userInfo) {
    const redirect = encodeURIComponent(location.pathname + location.search);
    return <Navigate to={`/signin?redirect=${redirect}`} replace />;
  }
  return <Outlet />;
}
