import { useHydrated } from '@shop/ui';
import { useRef, useState, type ComponentType, type KeyboardEvent, type ReactNode } from 'react';

/** What a deferred popup is given when it takes the stand-in's place. */
export interface DeferredPopupProps {
  /** The stand-in had the focus: the real trigger takes it over. */
  focusTrigger: boolean;
  /** The shopper pressed the stand-in with a pointer (or assistive technology clicked it): open at once. */
  openNow: boolean;
  /** Keys pressed on the stand-in before the code arrived, in order: the real trigger gets them again. */
  pendingKeys: readonly string[];
}

interface DeferredPopupOptions {
  /** Fetches the real popup (a dynamic import, so its code is a chunk of its own). */
  load: () => Promise<ComponentType<DeferredPopupProps>>;
  /** What the real trigger opens, for assistive technology. */
  haspopup: 'menu' | 'dialog';
  className?: string;
  /** The trigger's content: the same as the real trigger's, so nothing moves when it is swapped. */
  children: ReactNode;
}

/** The keys a menu button answers; typed ahead on the stand-in, they are kept for the real trigger. */
const KEPT_KEYS = new Set(['Enter', ' ', 'ArrowDown', 'ArrowUp', 'Home', 'End', 'Escape']);

/**
 * A menu or drawer of the top bar whose code (Radix and its focus, scroll and layer helpers: ~30 KB
 * compressed) is not part of the first load. Until a shopper reaches for it (focus on the button, a
 * click, a tap or a key) a plain button with the same look and name stands in; the real trigger then
 * replaces it, keeps the focus, and gets what the shopper did meanwhile: a press opens it, keys typed
 * ahead are pressed again in order (useTriggerTakeover). On a server-rendered page the stand-in is disabled
 * until the page's code has taken the HTML over: a press before then would reach no handler and be lost.
 */
export function DeferredPopup({ load, haspopup, className, children }: DeferredPopupOptions) {
  const [popup, setPopup] = useState<{
    Popup: ComponentType<DeferredPopupProps>;
    props: DeferredPopupProps;
  }>();
  const standIn = useRef<HTMLButtonElement>(null);
  const loading = useRef<Promise<void> | undefined>(undefined);
  const pressed = useRef(false);
  const keys = useRef<string[]>([]);
  const hydrated = useHydrated();

  const fetchPopup = () => {
    loading.current ??= load().then(
      (Popup) =>
        setPopup({
          Popup,
          props: {
            focusTrigger: document.activeElement === standIn.current,
            openNow: pressed.current,
            pendingKeys: keys.current,
          },
        }),
      () => {
        // Offline or a failed deploy: the next gesture tries again.
        loading.current = undefined;
        keys.current = [];
      },
    );
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (!KEPT_KEYS.has(event.key)) return;
    // Kept for the real trigger; without this, Enter and Space would also click the stand-in.
    event.preventDefault();
    keys.current.push(event.key);
    fetchPopup();
  };

  const press = () => {
    pressed.current = true;
    fetchPopup();
  };

  if (popup) return <popup.Popup {...popup.props} />;
  return (
    <button
      ref={standIn}
      type="button"
      className={className}
      aria-haspopup={haspopup}
      aria-expanded={false}
      disabled={!hydrated}
      // Nothing is fetched on hover: a swap between a hover and a press would lose the press.
      onFocus={fetchPopup}
      onKeyDown={onKeyDown}
      onPointerDown={press}
      onClick={press}
    >
      {children}
    </button>
  );
}
