import { generateKeyPairSync } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOKEN_ALGORITHM, TOKEN_AUDIENCE, TOKEN_ISSUER } from './token-claims';
import { INVALID_TOKEN_MESSAGE, REVOKED_TOKEN_MESSAGE, TokenVerifier } from './token-verifier';

const { privateKey, publicKey } = generateKeyPairSync('ed25519');

function sign(userId: string, lifetimeSeconds: number): Promise<string> {
  return new SignJWT({ isAdmin: false })
    .setProtectedHeader({ alg: TOKEN_ALGORITHM })
    .setSubject(userId)
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1_000) + lifetimeSeconds)
    .setJti(crypto.randomUUID())
    .sign(privateKey);
}

// The verifier remembers tokens it has checked; what it remembers must never outlive what makes a
// token good: its expiry, the revocations, and the exact bytes that were signed.
describe('TokenVerifier, remembering verified tokens', () => {
  afterEach(() => vi.useRealTimers());

  it('refuses a remembered token once its user is revoked', async () => {
    const revoked = new Set<string>();
    const verifier = new TokenVerifier(publicKey, { isRevoked: (userId) => revoked.has(userId) });
    const token = await sign('user-1', 3_600);
    await expect(verifier.verify(token)).resolves.toMatchObject({ id: 'user-1', isAdmin: false });
    revoked.add('user-1');
    await expect(verifier.verify(token)).rejects.toThrow(REVOKED_TOKEN_MESSAGE);
  });

  it('refuses a remembered token once it has expired', async () => {
    const verifier = new TokenVerifier(publicKey, { isRevoked: () => false });
    const token = await sign('user-2', 60);
    await expect(verifier.verify(token)).resolves.toMatchObject({ id: 'user-2' });
    vi.useFakeTimers({ now: Date.now() + 61_000 });
    await expect(verifier.verify(token)).rejects.toThrow(INVALID_TOKEN_MESSAGE);
  });

  it('does not answer a token that differs from a remembered one by a byte', async () => {
    const verifier = new TokenVerifier(publicKey, { isRevoked: () => false });
    const token = await sign('user-3', 3_600);
    await verifier.verify(token);
    // Not the last character: its low bits are padding in base64url, so changing it may change nothing.
    const at = token.length - 2;
    const other = token[at] === 'A' ? 'B' : 'A';
    const changed = `${token.slice(0, at)}${other}${token.slice(at + 1)}`;
    await expect(verifier.verify(changed)).rejects.toThrow(INVALID_TOKEN_MESSAGE);
  });
});
