import { useEffect, useRef } from 'react';
import type { DeferredPopupProps } from './deferred-popup';

/** Time for a popup to open (or its focus to move) between two replayed keys, as between two real presses. */
const BETWEEN_KEYS_MS = 16;

/**
 * The ref of a real trigger that replaces a stand-in (deferred-popup.tsx): once mounted it takes the
 * focus the stand-in had, then gets the keys pressed on the stand-in, in order, each sent to whatever
 * has the focus by then (the trigger, then the opened menu's items), so typing ahead is not lost.
 * A popup mounted open takes the focus itself: focusing the trigger after it would be focus leaving the
 * popup, which closes a menu rendered in place. Closing gives the trigger the focus back (Radix).
 */
export function useTriggerTakeover<T extends HTMLElement>({
  focusTrigger,
  openNow,
  pendingKeys,
}: Pick<DeferredPopupProps, 'focusTrigger' | 'openNow' | 'pendingKeys'>) {
  const ref = useRef<T>(null);
  const done = useRef(false);
  useEffect(() => {
    const trigger = ref.current;
    // Once: React's development double-run of effects must not press the keys twice.
    if (!trigger || done.current) return;
    done.current = true;
    if ((focusTrigger && !openNow) || pendingKeys.length > 0) trigger.focus();
    void (async () => {
      for (const key of pendingKeys) {
        const target = document.activeElement ?? trigger;
        target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
        await new Promise((resolve) => setTimeout(resolve, BETWEEN_KEYS_MS));
      }
    })();
    // The stand-in's state is fixed when the real trigger mounts.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return ref;
}
