import { useRef, useState, type ComponentType, type ReactNode } from 'react';

/** What a deferred popup is given when it takes the stand-in's place. */
export interface DeferredPopupProps {
  /** The shopper clicked the stand-in (or pressed Enter on it) before the code arrived: open at once. */
  defaultOpen: boolean;
  /** The stand-in had the focus: the real trigger takes it over. */
  focusTrigger: boolean;
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

/**
 * A menu or drawer of the top bar whose code (Radix and its focus, scroll and layer helpers: ~30 KB
 * compressed) is not part of the first load. Until a shopper reaches for it (focus on the button, a
 * click or a tap) a plain button with the same look and name stands in; the real trigger then replaces
 * it, keeps the focus, and opens when the shopper had pressed it.
 */
export function DeferredPopup({ load, haspopup, className, children }: DeferredPopupOptions) {
  const [popup, setPopup] = useState<{
    Popup: ComponentType<DeferredPopupProps>;
    props: DeferredPopupProps;
  }>();
  const standIn = useRef<HTMLButtonElement>(null);
  const loading = useRef<Promise<void> | undefined>(undefined);
  const clicked = useRef(false);

  const fetchPopup = () => {
    loading.current ??= load().then(
      (Popup) =>
        setPopup({
          Popup,
          props: { defaultOpen: clicked.current, focusTrigger: document.activeElement === standIn.current },
        }),
      () => {
        // Offline or a failed deploy: the next gesture tries again.
        loading.current = undefined;
      },
    );
  };

  const press = () => {
    clicked.current = true;
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
      // Tabbing to the button fetches the code without opening; pressing it (pointer, Enter or Space) opens.
      // Nothing is fetched on hover: a swap between a hover and a press would lose the press.
      onFocus={fetchPopup}
      onPointerDown={press}
      onClick={press}
    >
      {children}
    </button>
  );
}
