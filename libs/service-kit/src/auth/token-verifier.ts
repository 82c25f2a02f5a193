import type { KeyObject } from 'node:crypto';
import { UnauthorizedException } from '@nestjs/common';
import { jwtVerify } from 'jose';
import { TOKEN_ALGORITHM, TOKEN_AUDIENCE, TOKEN_ISSUER, type AuthenticatedUser } from './token-claims';
import type { TokenRevocations } from './token-revocations';

export const INVALID_TOKEN_MESSAGE = 'Invalid or expired token';
export const REVOKED_TOKEN_MESSAGE = 'Your session has ended, please sign in again';

// Far above any token the users service signs; refuses junk before any parsing.
const MAX_TOKEN_LENGTH = 4_096;
// Tokens whose signature was checked, remembered so a shopper's next calls skip the Ed25519 check,
// the costliest step of a request's own work (docs/performance.md, Orders). Bounded: the oldest is
// dropped first.
const VERIFIED_CACHE_SIZE = 10_000;

interface VerifiedToken {
  user: AuthenticatedUser;
  /** The token's `iat`, in seconds, as revocations compare it. */
  issuedAt: number;
  /** The token's `exp`, in seconds. */
  expiresAt: number;
}

/**
 * Checks a bearer token the way every service must: an EdDSA signature by the users service's key
 * (no other algorithm, so `alg: none` and HS256 forgeries fail), issuer, audience, expiry, the
 * claims the shop relies on, and the revocations learnt from JetStream.
 */
export class TokenVerifier {
  /** By the whole token string: only a byte-identical token is answered from here. */
  private readonly verified = new Map<string, VerifiedToken>();

  constructor(
    private readonly publicKey: KeyObject,
    private readonly revocations: Pick<TokenRevocations, 'isRevoked'>,
  ) {}

  /** Answers who the token speaks for, or throws a 401. */
  async verify(token: string): Promise<AuthenticatedUser> {
    if (token.length > MAX_TOKEN_LENGTH) throw new UnauthorizedException(INVALID_TOKEN_MESSAGE);
    const known = this.verified.get(token);
    if (known && Math.floor(Date.now() / 1_000) < known.expiresAt) {
      // Signature, issuer and audience cannot change; expiry and revocations are checked every time.
      if (this.revocations.isRevoked(known.user.id, known.issuedAt)) {
        throw new UnauthorizedException(REVOKED_TOKEN_MESSAGE);
      }
      return { ...known.user };
    }
    if (known) this.verified.delete(token);
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, this.publicKey, {
        algorithms: [TOKEN_ALGORITHM],
        issuer: TOKEN_ISSUER,
        audience: TOKEN_AUDIENCE,
        requiredClaims: ['sub', 'iat', 'exp', 'jti'],
      }));
    } catch {
      throw new UnauthorizedException(INVALID_TOKEN_MESSAGE);
    }
    const { sub, iat, exp, isAdmin } = payload;
    if (
      typeof sub !== 'string' ||
      typeof iat !== 'number' ||
      typeof exp !== 'number' ||
      typeof isAdmin !== 'boolean'
    ) {
      throw new UnauthorizedException(INVALID_TOKEN_MESSAGE);
    }
    if (this.revocations.isRevoked(sub, iat)) throw new UnauthorizedException(REVOKED_TOKEN_MESSAGE);
    const user = { id: sub, isAdmin, issuedAt: new Date(iat * 1_000) };
    this.remember(token, { user: { ...user }, issuedAt: iat, expiresAt: exp });
    return user;
  }

  private remember(token: string, verified: VerifiedToken): void {
    if (this.verified.size >= VERIFIED_CACHE_SIZE) {
      const oldest = this.verified.keys().next();
      if (!oldest.done) this.verified.delete(oldest.value);
    }
    this.verified.set(token, verified);
  }
}
