import { signOutAtom, userInfoAtom } from '@shop/state';
import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import topBar from './top-bar.module.css';
import styles from './user-menu.module.css';

/** User dropdown (spec §2): 'Hello, sign in' → Sign In, or 'Hello, {name}' → profile, history, sign out. */
export function UserMenu() {
  const userInfo = useAtomValue(userInfoAtom);
  const signOut = useSetAtom(signOutAtom);
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const container = useRef<HTMLDivElement>(null);
  const listId = useId();

  useEffect(() => {
    if (!open) return;
    const closeOnOutside = (event: PointerEvent) => {
      if (!container.current?.contains(event.target as Node)) setOpen(false);
    };
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('pointerdown', closeOnOutside);
    document.addEventListener('keydown', closeOnEscape);
    return () => {
      document.removeEventListener('pointerdown', closeOnOutside);
      document.removeEventListener('keydown', closeOnEscape);
    };
  }, [open]);

  const close = () => setOpen(false);
  const onSignOut = () => {
    close();
    signOut();
    navigate('/signin');
  };

  return (
    <div className={styles['menu']} ref={container}>
      <button
        type="button"
        className={topBar['barButton']}
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((value) => !value)}
      >
        {userInfo ? `Hello, ${userInfo.name}` : 'Hello, sign in'}
        <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <ul id={listId} className={styles['list']}>
          {userInfo ? (
            <>
              <li>
                <Link to="/profile" className={styles['item']} onClick={close}>
                  User Profile
                </Link>
              </li>
              <li>
                <Link to="/orderhistory" className={styles['item']} onClick={close}>
                  Order History
                </Link>
              </li>
              <li className={styles['divider']} role="separator" />
              <li>
                <button type="button" className={styles['item']} onClick={onSignOut}>
                  Sign Out
                </button>
              </li>
            </>
          ) : (
            <li>
              <Link to="/signin" className={styles['item']} onClick={close}>
                Sign In
              </Link>
            </li>
          )}
        </ul>
      )}
    </div>
  );
}
