import { userInfoAtom } from '@shop/state';
import { useAtomValue } from 'jotai';
import styles from './user-menu.module.css';

/** 'Hello, sign in' or 'Hello, {name}', the same on the stand-in and on the real trigger. */
export function UserMenuLabel() {
  const userInfo = useAtomValue(userInfoAtom);
  return (
    <>
      <span className={styles['greeting']}>{userInfo ? `Hello, ${userInfo.name}` : 'Hello, sign in'}</span>
      <span aria-hidden="true">▾</span>
    </>
  );
}
