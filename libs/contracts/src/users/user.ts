import type { QueryOf, Schema } from '../http/api-types';

/**
 * A user as the admin list shows it (docs/product/data.md, "User"): never a hash, a code or anything
 * internal.
 */
export type UserSummary = Schema<'UserSummaryResponse'>;

/**
 * What sign-in, sign-up and a profile update answer, and what the storefront keeps as `userInfo`;
 * `token` is the bearer token sent with every call.
 */
export type UserInfo = Schema<'UserInfoResponse'>;

/** A plain answer to a call whose result is only a confirmation. */
export type Confirmation = Schema<'ConfirmationResponse'>;

/** Where the users API is reachable, relative to the site root. */
export const USERS_API = '/api/users';

/** Limits of the admin list `GET api/users/all-users`, shared by the server's validation and the screen. */
export const USER_LIST_LIMITS = {
  /** Characters of the text search. */
  search: 100,
  /** Users per page when `page` is given without `limit`. */
  defaultLimit: 20,
  maxLimit: 100,
} as const;

/**
 * Query of the admin list `GET api/users/all-users`. Without any parameter: every account, oldest
 * first, as before. The answer is always an array; the number of matching accounts is in
 * `X-Total-Count` (`TOTAL_COUNT_HEADER`).
 */
export type UserListQuery = QueryOf<'/api/users/all-users', 'get'>;
