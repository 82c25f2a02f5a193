import { modeAtom } from '@shop/state';
import { useAtomValue } from 'jotai';
import type { ReactNode } from 'react';
import { ToastContainer } from 'react-toastify';
import { Footer } from './footer';
import styles from './layout.module.css';
import { TopBar } from './top-bar';
import { useSiteData } from './use-site-data';
import { useThemeAttribute } from './use-theme-attribute';

/** Shared layout (spec §2): top bar, the routed screen, footer, one bottom-centre toast at a time. */
export function Layout({ children }: { children: ReactNode }) {
  useThemeAttribute();
  useSiteData();
  const mode = useAtomValue(modeAtom);

  return (
    <div className={styles['shell']}>
      <TopBar />
      <main className={styles['main']}>{children}</main>
      <Footer />
      <ToastContainer limit={1} autoClose={5000} position="bottom-center" theme={mode} />
    </div>
  );
}
