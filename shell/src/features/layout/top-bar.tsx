import { siteSettingsAtom } from '@shop/state';
import { useAtomValue } from 'jotai';
import { Link } from 'react-router-dom';
import { CartLink } from './cart-link';
import { SearchBox } from './search-box';
import { SideMenu } from './side-menu';
import { ThemeToggle } from './theme-toggle';
import styles from './top-bar.module.css';
import { UserMenu } from './user-menu';

/** Top bar: side menu, site name, search, theme, user menu, cart. */
export function TopBar() {
  const { websiteName, logo } = useAtomValue(siteSettingsAtom);
  return (
    <header className={styles['bar']}>
      <div className={styles['row']}>
        <SideMenu />
        <Link to="/" className={styles['brand']}>
          {logo && <img src={logo} alt="" className={styles['logo']} />}
          <span>{websiteName}</span>
        </Link>
        <SearchBox />
        <nav className={styles['actions']} aria-label="Account and cart">
          <ThemeToggle />
          <UserMenu />
          <CartLink />
        </nav>
      </div>
    </header>
  );
}
