import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  SERVICE_CONTEXT,
  type ServiceContext,
  TOKEN_ALGORITHM,
  TOKEN_AUDIENCE,
  TOKEN_ISSUER,
  type ShopTokenClaims,
} from '@shop/service-kit';
import { SignJWT } from 'jose';
import type { UsersConfig } from '../config/users.config';
import { SIGNING_KEYS, type SigningKeys } from './signing-keys';

export interface TokenSubject {
  id: string;
  isAdmin: boolean;
  /** The user's `sessionsValidFrom` (seconds): a new token is never dated before it. */
  sessionsValidFrom: number;
}

/** Signs the shop's tokens: EdDSA, `sub`, `isAdmin`, `iat`, `exp`, `iss`, `aud`, `jti`. */
@Injectable()
export class TokenIssuer {
  constructor(
    @Inject(SIGNING_KEYS) private readonly keys: SigningKeys,
    @Inject(SERVICE_CONTEXT) private readonly context: ServiceContext<UsersConfig>,
  ) {}

  async issue(subject: TokenSubject): Promise<string> {
    // `iat` has whole seconds: a token signed in the same second as a password reset would
    // otherwise look older than the reset and be refused everywhere.
    const issuedAt = Math.max(Math.floor(Date.now() / 1_000), subject.sessionsValidFrom);
    const claims: ShopTokenClaims = { isAdmin: subject.isAdmin };
    return new SignJWT({ ...claims })
      .setProtectedHeader({ alg: TOKEN_ALGORITHM, typ: 'JWT' })
      .setSubject(subject.id)
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + this.context.config.JWT_TTL)
      .setJti(randomUUID())
      .sign(this.keys.privateKey);
  }
}
