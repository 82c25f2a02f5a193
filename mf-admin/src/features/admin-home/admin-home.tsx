import { userInfoAtom } from '@shop/state';
import { useAtomValue } from 'jotai';
import { useLocation } from 'react-router-dom';
import styles from './admin-home.module.css';

const SCREEN_TITLES: Record<string, string> = {
  'create-listing': 'Create Listing',
  'all-products': 'All Products',
  update: 'Update Product',
  'all-orders': 'All Orders',
  'all-users': 'All Users',
  'wallet-update': 'Wallet Update',
  'website-update': 'Website Update',
};

/** Admin screens (spec §2 "Admin screens"); a placeholder naming the screen until each is built. */
export default function AdminHome() {
  const userInfo = useAtomValue(userInfoAtom);
  const { pathname } = useLocation();
  const title = SCREEN_TITLES[pathname.split('/')[1] ?? ''] ?? 'Admin';
  return (
    <section className={styles['page']}>
      <title>{title}</title>
      <h1>{title}</h1>
      <p>Signed in as {userInfo?.name ?? 'unknown'}. This admin screen is coming soon.</p>
    </section>
  );
}
