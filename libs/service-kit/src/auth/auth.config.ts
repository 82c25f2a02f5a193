import { createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError } from '../config/service-config';

/**
 * Settings of a service that verifies tokens; spread into its config schema with
 * `baseServiceConfigSchema.extend(authConfigShape)`. One of the two is required: the PEM itself
 * (from a secret) or the path of a PEM file (local runs, mounted secrets).
 */
export const authConfigShape = {
  /** The users service's Ed25519 public key, PEM (SPKI). */
  JWT_PUBLIC_KEY: z.string().min(1).optional(),
  /** Path of a file holding that key. */
  JWT_PUBLIC_KEY_FILE: z.string().min(1).optional(),
};

export type AuthConfig = z.infer<z.ZodObject<typeof authConfigShape>>;

function readPem(variable: string, path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  ${variable}=${JSON.stringify(path)}: ${String(error)}`);
  }
}

/** Reads the token verification key from `JWT_PUBLIC_KEY` or `JWT_PUBLIC_KEY_FILE`; it must be Ed25519. */
export function loadPublicKey(config: AuthConfig): KeyObject {
  const pem =
    config.JWT_PUBLIC_KEY ??
    (config.JWT_PUBLIC_KEY_FILE ? readPem('JWT_PUBLIC_KEY_FILE', config.JWT_PUBLIC_KEY_FILE) : undefined);
  if (!pem) {
    throw new ConfigError(
      'Invalid configuration:\n  JWT_PUBLIC_KEY or JWT_PUBLIC_KEY_FILE: required (the users service public key, PEM)',
    );
  }
  if (pem.includes('PRIVATE KEY')) {
    // Only the users service may hold the signing key.
    throw new ConfigError('Invalid configuration:\n  JWT_PUBLIC_KEY: is a private key; give the public key');
  }
  let key: KeyObject;
  try {
    key = createPublicKey(pem.replace(/\\n/g, '\n'));
  } catch {
    throw new ConfigError('Invalid configuration:\n  JWT_PUBLIC_KEY: not a PEM public key');
  }
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new ConfigError(
      `Invalid configuration:\n  JWT_PUBLIC_KEY: must be an Ed25519 key, got ${key.asymmetricKeyType ?? 'unknown'}`,
    );
  }
  return key;
}
