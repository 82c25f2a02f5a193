import { userInfoAtom } from '@shop/state';
import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { safeRedirect } from './safe-redirect';

/**
 * Sign In and Sign Up (docs/product/screens.md, "Sign In and Sign Up"): the page's `?redirect=` target
 * (default `/`, this site only), where a signed-in user is sent at once, and where a sign-in or sign-up
 * on the page therefore lands.
 */
export function useRedirectWhenSignedIn(): string {
  const [searchParams] = useSearchParams();
  const redirect = safeRedirect(searchParams.get('redirect'));
  const navigate = useNavigate();
  const userInfo = useAtomValue(userInfoAtom);

  useEffect(() => {
    if (userInfo) navigate(redirect, { replace: true });
  }, [userInfo, redirect, navigate]);

  return redirect;
}
