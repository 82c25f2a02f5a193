import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { Link } from 'react-router-dom';
import menu from '../../shared/menu.module.css';
import styles from './admin-features-menu.module.css';

/** The admin screens, in the order and words of docs/product/screens.md, "User Profile". */
const ADMIN_LINKS = [
  { to: '/create-listing', label: 'Add Product' },
  { to: '/all-users', label: 'View All Users' },
  { to: '/all-orders', label: 'View All Orders' },
  { to: '/all-products', label: 'View All Products' },
  { to: '/wallet-update', label: 'Wallet Update' },
  { to: '/website-update', label: 'Website Update' },
  { to: '/audit-trail', label: 'Audit Trail' },
  { to: '/fault-flags', label: 'Fault Flags' },
] as const;

/** The 'ADMIN FEATURES' dropdown of the profile page: a real menu (arrow keys, Escape, focus returns). */
export function AdminFeaturesMenu() {
  return (
    // Not modal: a menu button need not hide the page (a modal menu sets aria-hidden on a page that keeps
    // focusable controls, which axe rightly flags); Escape, outside clicks and Tab still close it. Not in a
    // portal either: the open menu stays in its button's landmark (axe's `region`), right after the button.
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className={styles['trigger']}>
        ADMIN FEATURES <span aria-hidden="true">▾</span>
      </DropdownMenu.Trigger>
      <DropdownMenu.Content className={menu['content']} align="start" sideOffset={4}>
        {ADMIN_LINKS.map((link) => (
          <DropdownMenu.Item key={link.to} asChild className={menu['item']}>
            <Link to={link.to}>{link.label}</Link>
          </DropdownMenu.Item>
        ))}
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}
