/** MongoDB's error code for a write that met a unique index (or an `_id`) already taken. */
export const DUPLICATE_KEY_CODE = 11000;

/**
 * Whether `error` is MongoDB's duplicate-key error: thrown by an insert or upsert, or one entry of
 * an unordered bulk write's `writeErrors`.
 */
export function isDuplicateKey(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === DUPLICATE_KEY_CODE;
}
