import { userInfoAtom } from '@shop/state';
import { useAtomValue } from 'jotai';
import { DeferredPopup } from '../../shared/deferred-popup';
import topBar from './top-bar.module.css';
import styles from './user-menu.module.css';

/** The user menu's button: its Radix menu (user-menu-popup.tsx) is fetched when the shopper reaches for it. */
export function UserMenu() {
  return (
    <DeferredPopup
      load={() => import('./user-menu-popup').then((module) => module.UserMenuPopup)}
      haspopup="menu"
      className={topBar['barButton']}
    >
      <UserMenuLabel />
    </DeferredPopup>
  );
}

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
