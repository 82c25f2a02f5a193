import { DeferredPopup } from '../../shared/deferred-popup';
import topBar from './top-bar.module.css';
import { UserMenuLabel } from './user-menu-label';

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
