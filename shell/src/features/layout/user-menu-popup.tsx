import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { signOutAtom, userInfoAtom } from '@shop/state';
import { useAtomValue, useSetAtom } from 'jotai';
import { Link, useNavigate } from 'react-router-dom';
import type { DeferredPopupProps } from '../../shared/deferred-popup';
import menu from '../../shared/menu.module.css';
import { useTriggerTakeover } from '../../shared/use-trigger-takeover';
import topBar from './top-bar.module.css';
import { UserMenuLabel } from './user-menu-label';

/**
 * User dropdown (docs/product/screens.md, "User menu"): 'Hello, sign in' → Sign In, or 'Hello, {name}' →
 * profile, history, sign out.
 * A Radix menu: arrow keys move between items, Escape closes, focus goes back to the button. Loaded when
 * the shopper reaches for its button (user-menu.tsx).
 */
export function UserMenuPopup(takeover: DeferredPopupProps) {
  const userInfo = useAtomValue(userInfoAtom);
  const trigger = useTriggerTakeover<HTMLButtonElement>(takeover);
  const signOut = useSetAtom(signOutAtom);
  const navigate = useNavigate();

  const onSignOut = () => {
    signOut();
    navigate('/signin');
  };

  return (
    // Not modal: a menu button need not hide the page (a modal menu sets aria-hidden on a page that keeps
    // focusable controls, which axe rightly flags); Escape, outside clicks and Tab still close it. Not in a
    // portal either: the open menu stays in its button's landmark (axe's `region`), right after the button.
    <DropdownMenu.Root modal={false} defaultOpen={takeover.openNow}>
      <DropdownMenu.Trigger ref={trigger} className={topBar['barButton']}>
        <UserMenuLabel />
      </DropdownMenu.Trigger>
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
    </DropdownMenu.Root>
  );
}
