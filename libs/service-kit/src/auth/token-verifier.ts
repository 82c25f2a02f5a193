import type { KeyObject } from 'node:crypto';
import { UnauthorizedException } from '@nestjs/common';
import { jwtVerify } from 'jose';
import { TOKEN_ALGORITHM, TOKEN_AUDIENCE, TOKEN_ISSUER, type AuthenticatedUser } from './token-claims';
import type { TokenRevocations } from './token-revocations';

export const INVALID_TOKEN_MESSAGE = 'Invalid or expired token';
export const REVOKED_TOKEN_MESSAGE = 'Your session has ended, please sign in again';

// Far above any token the users service signs; refuses junk before any parsing.
const MAX_TOKEN_LENGTH = 4_096;

/**
 * Checks a bearer token the way every service must: an EdDSA signature by the users service's key
 * (no other algorithm, so `alg: none` and HS256 forgeries fail), issuer, audience, expiry, the
 * claims the shop relies on, and the revocations learnt from JetStream.
 */
export class TokenVerifier {
  constructor(
    private readonly publicKey: KeyObject,
    private readonly revocations: Pick<TokenRevocations, 'isRevoked'>,
  ) {}

  /** Answers who the token speaks for, or throws a 401. */
  async verify(token: string): Promise<AuthenticatedUser> {
    if (token.length > MAX_TOKEN_LENGTH) throw new UnauthorizedException(INVALID_TOKEN_MESSAGE);
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
    const { sub, iat, isAdmin } = payload;
    if (typeof sub !== 'string' || typeof iat !== 'number' || typeof isAdmin !== 'boolean') {
      throw new UnauthorizedException(INVALID_TOKEN_MESSAGE);
    }
    if (this.revocations.isRevoked(sub, iat)) throw new UnauthorizedException(REVOKED_TOKEN_MESSAGE);
    return { id: sub, isAdmin, issuedAt: new Date(iat * 1_000) };
  }
}
