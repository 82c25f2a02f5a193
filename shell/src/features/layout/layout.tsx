import { modeAtom, onSessionEnded } from '@shop/state';
import { useAtomValue } from 'jotai';
import { useEffect, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { DeferredToastContainer, showToast, type TreePosition } from '@shop/ui';
import { FooterSlot } from './footer-slot';
import styles from './layout.module.css';
import { TopBar } from './top-bar';
import { useSiteData } from './use-site-data';
import { useThemeAttribute } from './use-theme-attribute';

const SESSION_ENDED_MESSAGE = 'Your session has ended. Please sign in again.';

/** A call found the session ended (expired, revoked, account deleted): sign-in, then back to this page. */
function useSessionEndedRedirect(): void {
  const navigate = useNavigate();
  useEffect(
    () =>
      onSessionEnded((signInUrl) => {
        showToast('info', SESSION_ENDED_MESSAGE, { toastId: 'session-ended' });
        navigate(signInUrl, { replace: true });
      }),
    [navigate],
  );
}

/**
 * Where the routed screen sits in the layout's tree for React's useId (the layout's <div> has five children,
 * <main> is the third): the catalog's render service renders a screen at this place, so the ids it draws are
 * those hydration computes (@shop/ui's TreePosition). Kept true by layout.tree-position.spec.tsx.
 */
export const SCREEN_TREE_POSITION: TreePosition = [[5, 2]];

/**
 * Shared layout (docs/product/screens.md, "Shared layout"): top bar, the routed screen, footer, one
 * bottom-centre toast at a time.
 */
export function Layout({ children }: { children: ReactNode }) {
  useThemeAttribute();
  useSiteData();
  useSessionEndedRedirect();
  const mode = useAtomValue(modeAtom);

  return (
    <div className={styles['shell']}>
      <a href="#main" className={styles['skipLink']}>
        Skip to main content
      </a>
      <TopBar />
      {/* Focusable so the skip link moves keyboard focus here, not just the scroll position. */}
      <main id="main" tabIndex={-1} className={styles['main']}>
        {children}
      </main>
      <FooterSlot />
      <DeferredToastContainer limit={1} autoClose={5000} position="bottom-center" theme={mode} />
    </div>
  );
}
