import { DeferredPopup } from '../../shared/deferred-popup';
import { SideMenuLabel } from './side-menu-label';
import topBar from './top-bar.module.css';

/** The 'All' button: its drawer (side-menu-popup.tsx) is fetched when the shopper reaches for it. */
export function SideMenu() {
  return (
    <DeferredPopup
      load={() => import('./side-menu-popup').then((module) => module.SideMenuPopup)}
      haspopup="dialog"
      className={topBar['barButton']}
    >
      <SideMenuLabel />
    </DeferredPopup>
  );
}
