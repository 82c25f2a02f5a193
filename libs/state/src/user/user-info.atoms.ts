import { atom } from 'jotai';
import { atomWithStorage } from 'jotai/vanilla/utils';
import { validatedLocalStorage } from '../storage/json-storage';
import { STORAGE_KEYS } from '../storage/storage-keys';
import { isUserInfoOrNull, type UserInfo } from './user-info';

/** The signed-in user (null when signed out), persisted under `userInfo`. */
export const userInfoAtom = atomWithStorage<UserInfo | null>(
  STORAGE_KEYS.userInfo,
  null,
  validatedLocalStorage(isUserInfoOrNull),
  // Read storage when the atom is created so non-React code (apiFetch, remote registration) sees the user at start-up.
  { getOnInit: true },
);

/** True when the signed-in user is an admin. */
export const isAdminAtom = atom((get) => get(userInfoAtom)?.isAdmin === true);
