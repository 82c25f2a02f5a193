import { createJSONStorage } from 'jotai/vanilla/utils';

/** The synchronous storage shape `atomWithStorage` accepts (jotai does not export its own type). */
export interface SyncJsonStorage<Value> {
  getItem: (key: string, initialValue: Value) => Value;
  setItem: (key: string, newValue: Value) => void;
  removeItem: (key: string) => void;
  subscribe?: (
    key: string,
    callback: (value: Value) => void,
    initialValue: Value,
  ) => (() => void) | undefined;
}

/**
 * localStorage as JSON; a stored value of the wrong shape (older format, hand-edited) reads as the atom's
 * initial value instead of breaking the screens that use it.
 */
export function validatedLocalStorage<Value>(
  isValid: (value: unknown) => value is Value,
): SyncJsonStorage<Value> {
  const json = createJSONStorage<unknown>();
  const subscribe = json.subscribe;
  return {
    getItem: (key, initialValue) => {
      const value = json.getItem(key, initialValue);
      return isValid(value) ? value : initialValue;
    },
    setItem: (key, value) => json.setItem(key, value),
    removeItem: (key) => json.removeItem(key),
    subscribe: subscribe
      ? (key, callback, initialValue) =>
          subscribe(key, (value) => callback(isValid(value) ? value : initialValue), initialValue)
      : undefined,
  };
}
