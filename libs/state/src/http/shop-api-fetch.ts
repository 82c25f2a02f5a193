import { signOutAtom } from '../session/sign-out.atoms';
import { shopStore } from '../store/shop-store';
import { userInfoAtom } from '../user/user-info.atoms';
import { createApiClient } from './api-fetch';

type SessionEndedListener = (signInUrl: string) => void;

let sessionEndedListener: SessionEndedListener | undefined;

/**
 * Lets the shell navigate (with its router) when a call finds the session ended; without a listener
 * the page is loaded anew. Returns the function that removes the listener.
 */
export function onSessionEnded(listener: SessionEndedListener): () => void {
  sessionEndedListener = listener;
  return () => {
    if (sessionEndedListener === listener) sessionEndedListener = undefined;
  };
}

/** The sign-in URL that brings the user back to `here` afterwards. */
export function signInUrlFor(here: string): string {
  return here === '/' ? '/signin' : `/signin?redirect=${encodeURIComponent(here)}`;
}

/**
 * A call answered 401 (an expired, revoked or deleted account's token): sign out as the user would
 * (docs/product/rules.md, "Session") and go to sign-in, coming back here afterwards.
 */
export function endSession(): void {
  shopStore.set(signOutAtom);
  const { pathname, search } = window.location;
  if (pathname === '/signin') return;
  const target = signInUrlFor(pathname + search);
  if (sessionEndedListener) sessionEndedListener(target);
  else window.location.assign(target);
}

const client = createApiClient({
  getToken: () => shopStore.get(userInfoAtom)?.token,
  onUnauthorized: endSession,
});

/** JSON call to the site root with the stored user's bearer token; non-2xx rejects with the server's message. */
export const apiFetch = client.apiFetch;

/** `apiFetch` that also answers the status and headers (`X-Total-Count` of paged lists). */
export const apiRequest = client.apiRequest;
