import { shopStore } from '../store/shop-store';
import { userInfoAtom } from '../user/user-info.atoms';
import { createApiFetch } from './api-fetch';

/** JSON call to the site root with the stored user's bearer token; non-2xx rejects with the server's message. */
export const apiFetch = createApiFetch(() => shopStore.get(userInfoAtom)?.token);
