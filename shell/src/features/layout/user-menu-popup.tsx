import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { signOutAtom, userInfoAtom } from '@shop/state';
import { useAtomValue, useSetAtom } from 'jotai';
import { Link, useNavigate } from 'react-router-dom';
import menu from '../../shared/menu.module.css';
import topBar from './top-bar.module.css';
import styles from './user-menu.module.css';

/**
 * User dropdown (spec §2): 'Hello, sign in' → Sign In, or 'Hello, {name}' → profile, history, sign out.
 * A Radix menu: arrow keys move between items, Escape closes, focus goes back to the button.
 */
export function UserMenu() {
  const userInfo = useAtomValue(userInfoAtom);
  const signOut = useSetAtom(signOutAtom);
  const navigate = useNavigate();

  const onSignOut = () => {
    signOut();
    navigate('/signin');
  };

  return (
    // Not modal: a menu button need not hide the page (a modal menu sets aria-hidden on a page that keeps
    // focusable controls, which axe rightly flags); Escape, outside clicks and Tab still close it.
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className={topBar['barButton']}>
        <span className={styles['greeting']}>{userInfo ? `Hello, ${userInfo.name}` : 'Hello, sign in'}</span>
        <span aria-hidden="true">▾</span>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className={menu['content']} align="end" sideOffset={4}>
          {userInfo ? (
            <>
              <DropdownMenu.Item asChild className={menu['item']}>
                <Link to="/profile">User Profile</Link>
              </DropdownMenu.Item>
              <DropdownMenu.Item asChild className={menu['item']}>
                <Link to="/orderhistory">Order History</Link>
              </DropdownMenu.Item>
              <DropdownMenu.Separator className={menu['divider']} />
              <DropdownMenu.Item className={menu['item']} onSelect={onSignOut}>
                Sign Out
              </DropdownMenu.Item>
            </>
          ) : (
            <DropdownMenu.Item asChild className={menu['item']}>
              <Link to="/signin">Sign In</Link>
            </DropdownMenu.Item>
          )}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
