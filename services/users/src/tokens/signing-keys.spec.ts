import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@shop/service-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { usersConfigSchema } from '../config/users.config';
import { loadSigningKeys, withLocalKeys } from './signing-keys';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'signing-keys-'));
  dirs.push(dir);
  return dir;
}

function config(env: Record<string, string>) {
  return loadConfig(usersConfigSchema, {
    MONGO_URL: 'mongodb://127.0.0.1:27018/users',
    NATS_URL: 'nats://127.0.0.1:4222',
    ...env,
  });
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('signing keys', () => {
  it('generates a local Ed25519 pair on first start, private key 0600, and reuses it', () => {
    const dir = join(tempDir(), 'keys');
    const first = withLocalKeys(config({ JWT_KEYS_DIR: dir }));
    expect(first.JWT_PRIVATE_KEY_FILE).toBe(join(dir, 'jwt-private.pem'));
    expect(statSync(first.JWT_PRIVATE_KEY_FILE!).mode & 0o777).toBe(0o600);
    const pem = readFileSync(first.JWT_PUBLIC_KEY_FILE!, 'utf8');
    expect(pem).toMatch(/BEGIN PUBLIC KEY/);
    expect(loadSigningKeys(first).privateKey.asymmetricKeyType).toBe('ed25519');
    withLocalKeys(config({ JWT_KEYS_DIR: dir }));
    expect(readFileSync(first.JWT_PUBLIC_KEY_FILE!, 'utf8')).toBe(pem);
  });

  it('uses configured PEM strings as they are', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const given = config({
      JWT_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
      JWT_PUBLIC_KEY: (publicKey.export({ type: 'spki', format: 'pem' }) as string).replace(/\n/g, '\\n'),
      JWT_KEYS_DIR: join(tempDir(), 'unused'),
    });
    expect(withLocalKeys(given)).toBe(given);
    expect(loadSigningKeys(given).publicKeyPem).toContain('PUBLIC KEY');
  });

  it('refuses a public key that does not belong to the private key', () => {
    const mismatched = config({
      JWT_PRIVATE_KEY: generateKeyPairSync('ed25519').privateKey.export({
        type: 'pkcs8',
        format: 'pem',
      }) as string,
      JWT_PUBLIC_KEY: generateKeyPairSync('ed25519').publicKey.export({
        type: 'spki',
        format: 'pem',
      }) as string,
    });
    expect(() => loadSigningKeys(mismatched)).toThrow(/does not belong/);
  });

  it('refuses keys of another algorithm', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const ec = config({
      JWT_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
      JWT_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }) as string,
    });
    expect(() => loadSigningKeys(ec)).toThrow(/must be an Ed25519 key/);
  });

  it('refuses half a pair', () => {
    const half = config({
      JWT_PRIVATE_KEY_FILE: '/nowhere/jwt-private.pem',
      JWT_KEYS_DIR: join(tempDir(), 'k'),
    });
    expect(() => withLocalKeys(half)).toThrow(/give both keys/);
  });
});
