import { userInfoAtom } from '@shop/state';
import { useHydrated } from '@shop/ui';
import { useAtomValue } from 'jotai';
import styles from './user-menu.module.css';

/** 'Hello, sign in' or 'Hello, {name}', the same on the stand-in and on the real trigger. */
export function UserMenuLabel() {
  const signedIn = useAtomValue(userInfoAtom);
  // Who is signed in is the browser's to know: a server-rendered page greets them once hydrated.
  const userInfo = useHydrated() ? signedIn : null;
  return (
    <>
      <span className={styles['greeting']}>{userInfo ? `Hello, ${userInfo.name}` : 'Hello, sign in'}</span>
      <span aria-hidden="true">▾</span>
    </>
  );
}
