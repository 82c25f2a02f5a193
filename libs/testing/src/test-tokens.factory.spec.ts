import { createPublicKey } from 'node:crypto';
import { jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { createTestTokens } from './test-tokens.factory';

describe('createTestTokens', () => {
  it("signs tokens shaped like the users service's, verifiable with the public key it gives", async () => {
    const tokens = createTestTokens();
    const sub = tokens.newUserId();
    const { payload, protectedHeader } = await jwtVerify(
      await tokens.sign({ sub, isAdmin: true }),
      createPublicKey(tokens.publicKeyPem),
      {
        algorithms: ['EdDSA'],
        issuer: 'shop-users',
        audience: 'shop',
        requiredClaims: ['sub', 'iat', 'exp', 'jti'],
      },
    );
    expect(protectedHeader.alg).toBe('EdDSA');
    expect(payload).toMatchObject({ sub, isAdmin: true });
    expect(payload.exp! - payload.iat!).toBe(3_600);
    expect(sub).toMatch(/^[0-9a-f]{24}$/);
  });

  it('gives customers by default, and each run its own key', async () => {
    const [a, b] = [createTestTokens(), createTestTokens()];
    expect(a.publicKeyPem).not.toBe(b.publicKeyPem);
    const token = await a.sign();
    const { payload } = await jwtVerify(token, createPublicKey(a.publicKeyPem));
    expect(payload['isAdmin']).toBe(false);
    await expect(jwtVerify(token, createPublicKey(b.publicKeyPem))).rejects.toThrow();
  });
});
