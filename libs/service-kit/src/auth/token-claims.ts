/** The one signature algorithm of the shop's tokens (Ed25519); verifiers accept no other. */
export const TOKEN_ALGORITHM = 'EdDSA';

/** `iss` of every token: only the users service signs. */
export const TOKEN_ISSUER = 'shop-users';

/** `aud` of every token: the shop's services. */
export const TOKEN_AUDIENCE = 'shop';

/** Claims of a shop token beyond the registered ones (`sub` is the user id). */
export interface ShopTokenClaims {
  isAdmin: boolean;
}

/** Who made a request, as a verified token tells it; what `@CurrentUser()` gives a handler. */
export interface AuthenticatedUser {
  /** The user's id (`sub`). */
  id: string;
  /** Whether the user was an admin when the token was issued. */
  isAdmin: boolean;
  /** When the token was issued (`iat`, whole seconds). */
  issuedAt: Date;
}
