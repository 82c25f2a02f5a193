import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';

export interface TestTokenOptions {
  /** The user id (`sub`); a fresh ObjectId-shaped id when absent. */
  sub?: string;
  isAdmin?: boolean;
  /** Seconds since the epoch; now when absent. */
  iat?: number;
  /** Lifetime in seconds (default one hour). */
  ttlSeconds?: number;
}

export interface TestTokens {
  /** The verification key to give a service as `JWT_PUBLIC_KEY` (PEM, SPKI). */
  publicKeyPem: string;
  /** A token shaped like the users service's: EdDSA, `iss: shop-users`, `aud: shop`, `sub`, `isAdmin`, `jti`. */
  sign(options?: TestTokenOptions): Promise<string>;
  /** A new user id (24 hex characters, like a MongoDB ObjectId). */
  newUserId(): string;
}

/** A fresh Ed25519 key pair per test run, and tokens signed with it as the users service would. */
export function createTestTokens(): TestTokens {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const newUserId = () => randomBytes(12).toString('hex');
  return {
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }) as string,
    newUserId,
    sign(options = {}) {
      const iat = options.iat ?? Math.floor(Date.now() / 1_000);
      return new SignJWT({ isAdmin: options.isAdmin ?? false })
        .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT' })
        .setSubject(options.sub ?? newUserId())
        .setIssuer('shop-users')
        .setAudience('shop')
        .setIssuedAt(iat)
        .setExpirationTime(iat + (options.ttlSeconds ?? 3_600))
        .setJti(randomUUID())
        .sign(privateKey);
    },
  };
}
