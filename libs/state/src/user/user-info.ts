import type { UserInfo } from '@shop/contracts';

export type { UserInfo };

/** True when a stored value has the fields the storefront relies on. */
export function isUserInfo(value: unknown): value is UserInfo {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return (
    typeof candidate['_id'] === 'string' &&
    typeof candidate['name'] === 'string' &&
    typeof candidate['token'] === 'string' &&
    (candidate['isAdmin'] === undefined || typeof candidate['isAdmin'] === 'boolean')
  );
}

/** Accepts the stored user or nothing at all; anything else reads as signed out. */
export function isUserInfoOrNull(value: unknown): value is UserInfo | null {
  return value === null || isUserInfo(value);
}
