import { useCallback, useRef, useState } from 'react';
import { errorMessage } from '../data/error-message';
import { showToast } from '../feedback/toasts';

/** How one run of an action goes. */
export interface ActionOptions<Key> {
  /**
   * Which action runs, where a screen has several (a list's row id): `running` names it meanwhile. Without
   * one, the screen's single action.
   */
  key?: Key;
  /** The failure's text: the server's words by default (docs/product/messages.md, "Failed calls"). */
  failureMessage?: (error: unknown) => string;
  /** Where the failure's text goes: an error toast by default. */
  onFailure?: (message: string) => void;
}

/**
 * A call a shopper or an admin starts (a form sent, a row's action, an order placed): `running` names it
 * while it runs and `busy` says one runs (its buttons wait), the same one is not started twice at once (a second click before React
 * has drawn the button disabled does nothing), and a failure is shown in the server's words. What success
 * shows (a toast, a new page) is the task's own.
 */
export function useAction<Key = true>() {
  const [running, setRunning] = useState<Key>();
  const inFlight = useRef(new Set<Key>());

  const run = useCallback(async (task: () => Promise<void>, options: ActionOptions<Key> = {}) => {
    const { failureMessage = errorMessage, onFailure = (message) => showToast('error', message) } = options;
    // Without a key the screen has one action; `true` stands for it.
    const key = options.key ?? (true as Key);
    if (inFlight.current.has(key)) return;
    inFlight.current.add(key);
    setRunning(key);
    try {
      await task();
    } catch (error) {
      onFailure(failureMessage(error));
    } finally {
      inFlight.current.delete(key);
      setRunning((current) => (current === key ? undefined : current));
    }
  }, []);

  return { running, busy: running !== undefined, run };
}
