/** A user as the admin list shows it (spec §3): never a hash, a code or anything internal. */
export interface UserSummary {
  _id: string;
  name: string;
  email: string;
  isAdmin: boolean;
}

/**
 * What sign-in, sign-up and a profile update answer, and what the storefront keeps as `userInfo`;
 * `token` is the bearer token sent with every call.
 */
export interface UserInfo extends UserSummary {
  token: string;
}

/** A plain answer to a call whose result is only a confirmation. */
export interface Confirmation {
  message: string;
}
