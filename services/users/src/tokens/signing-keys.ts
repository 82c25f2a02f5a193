import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '@shop/service-kit';
import type { UsersConfig } from '../config/users.config';

/** Injection token of the users service's {@link SigningKeys}. */
export const SIGNING_KEYS = Symbol('SIGNING_KEYS');

const PRIVATE_KEY_FILE_NAME = 'jwt-private.pem';
const PUBLIC_KEY_FILE_NAME = 'jwt-public.pem';

export interface SigningKeys {
  privateKey: KeyObject;
  /** The PEM every service verifies with; also where the users service's own guard reads it. */
  publicKeyPem: string;
}

function fail(problem: string): never {
  throw new ConfigError(`Invalid configuration:\n  ${problem}`);
}

function readPem(variable: string, path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    return fail(`${variable}=${JSON.stringify(path)}: ${String(error)}`);
  }
}

/**
 * A local key pair under `dir`, generated on first use: the private key readable by its owner
 * only. Never used in production, which must be given its keys.
 */
function ensureLocalKeyPair(dir: string): { privateKeyFile: string; publicKeyFile: string } {
  const privateKeyFile = join(dir, PRIVATE_KEY_FILE_NAME);
  const publicKeyFile = join(dir, PUBLIC_KEY_FILE_NAME);
  if (!existsSync(privateKeyFile)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    writeFileSync(privateKeyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    chmodSync(privateKeyFile, 0o600);
    writeFileSync(publicKeyFile, publicKey.export({ type: 'spki', format: 'pem' }), { mode: 0o644 });
  } else if (!existsSync(publicKeyFile)) {
    const publicKey = createPublicKey(readFileSync(privateKeyFile, 'utf8'));
    writeFileSync(publicKeyFile, publicKey.export({ type: 'spki', format: 'pem' }), { mode: 0o644 });
  }
  return { privateKeyFile, publicKeyFile };
}

/**
 * Fills in the key settings from a local key pair when none is configured (outside production;
 * the config schema refuses production without keys), so `npm start` of the service alone works.
 */
export function withLocalKeys(config: UsersConfig): UsersConfig {
  const hasPrivate = Boolean(config.JWT_PRIVATE_KEY ?? config.JWT_PRIVATE_KEY_FILE);
  const hasPublic = Boolean(config.JWT_PUBLIC_KEY ?? config.JWT_PUBLIC_KEY_FILE);
  if ((hasPrivate && hasPublic) || config.NODE_ENV === 'production') return config;
  if (hasPrivate !== hasPublic) {
    fail('JWT_PRIVATE_KEY(_FILE) and JWT_PUBLIC_KEY(_FILE): give both keys of the pair, or neither');
  }
  const { privateKeyFile, publicKeyFile } = ensureLocalKeyPair(config.JWT_KEYS_DIR);
  return { ...config, JWT_PRIVATE_KEY_FILE: privateKeyFile, JWT_PUBLIC_KEY_FILE: publicKeyFile };
}

/** Loads the signing key and checks it belongs to the configured public key. */
export function loadSigningKeys(config: UsersConfig): SigningKeys {
  const pem =
    config.JWT_PRIVATE_KEY ??
    (config.JWT_PRIVATE_KEY_FILE ? readPem('JWT_PRIVATE_KEY_FILE', config.JWT_PRIVATE_KEY_FILE) : undefined);
  if (!pem) fail('JWT_PRIVATE_KEY or JWT_PRIVATE_KEY_FILE: required');
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem.replace(/\\n/g, '\n'));
  } catch {
    return fail('JWT_PRIVATE_KEY: not a PEM private key');
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') {
    fail(`JWT_PRIVATE_KEY: must be an Ed25519 key, got ${privateKey.asymmetricKeyType ?? 'unknown'}`);
  }
  const publicKeyPem =
    config.JWT_PUBLIC_KEY ??
    (config.JWT_PUBLIC_KEY_FILE ? readPem('JWT_PUBLIC_KEY_FILE', config.JWT_PUBLIC_KEY_FILE) : '');
  const derived = createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
  let configured: Buffer | undefined;
  try {
    configured = createPublicKey(publicKeyPem.replace(/\\n/g, '\n')).export({ type: 'spki', format: 'der' });
  } catch {
    configured = undefined;
  }
  if (!configured?.equals(derived)) {
    fail('JWT_PUBLIC_KEY: does not belong to JWT_PRIVATE_KEY (tokens would fail verification)');
  }
  return { privateKey, publicKeyPem };
}
