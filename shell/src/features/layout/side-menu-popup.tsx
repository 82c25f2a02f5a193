import * as Dialog from '@radix-ui/react-dialog';
import { userInfoAtom } from '@shop/state';
import { LoadingBox, MessageBox } from '@shop/ui';
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import type { DeferredPopupProps } from '../../shared/deferred-popup';
import { useTriggerTakeover } from '../../shared/use-trigger-takeover';
import { SideMenuLabel } from './side-menu-label';
import styles from './side-menu.module.css';
import topBar from './top-bar.module.css';
import { useCategories } from './use-categories';

/**
 * The 'All' drawer (docs/product/screens.md, "Side menu"): greeting, categories; closes on backdrop, close
 * button or choosing a category.
 * Loaded when the shopper reaches for its button (side-menu.tsx).
 */
export function SideMenuPopup({ openNow, focusTrigger, pendingKeys }: DeferredPopupProps) {
  // A dialog button opens on a click: Enter or Space typed ahead on the stand-in were that click.
  const openedByKey = pendingKeys.includes('Enter') || pendingKeys.includes(' ');
  const defaultOpen = openNow || openedByKey;
  const [open, setOpen] = useState(defaultOpen);
  const userInfo = useAtomValue(userInfoAtom);
  const { categories, load } = useCategories();
  const trigger = useTriggerTakeover<HTMLButtonElement>({
    focusTrigger,
    openNow: defaultOpen,
    pendingKeys: [],
  });
  useEffect(() => {
    // Opened by the click that fetched this code: load the categories as onOpenChange would have.
    if (defaultOpen) load();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const close = () => setOpen(false);
  const onOpenChange = (next: boolean) => {
    if (next) load();
    setOpen(next);
  };

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger ref={trigger} className={topBar['barButton']}>
        <SideMenuLabel />
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className={styles['overlay']} />
        {/* No description element: the title and the category list say it all. */}
        <Dialog.Content className={styles['drawer']} aria-describedby={undefined}>
          <div className={styles['header']}>
            <Dialog.Title className={styles['greeting']}>
              <Link to={userInfo ? '/profile' : '/signin'} onClick={close}>
                {userInfo ? `Hello, ${userInfo.name}` : 'Hello, sign in'}
              </Link>
            </Dialog.Title>
            <Dialog.Close className={styles['close']} aria-label="Close menu">
              ×
            </Dialog.Close>
          </div>
          <h2 className={styles['sectionTitle']}>Categories</h2>
          {(categories.status === 'loading' || categories.status === 'idle') && <LoadingBox />}
          {categories.status === 'failed' && <MessageBox variant="danger">{categories.message}</MessageBox>}
          {categories.status === 'loaded' && (
            <ul className={styles['list']}>
              {categories.categories.map((category) => (
                <li key={category}>
                  <Link
                    to={`/category/${encodeURIComponent(category)}`}
                    className={styles['item']}
                    onClick={close}
                  >
                    {category}
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
