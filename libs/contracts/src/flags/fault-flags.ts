import type { Schema } from '../http/api-types';

/**
 * What a fault flag's value means: `share`, the part of the requests it fails (0 to 1); `delay`, milliseconds
 * each one waits; `switch`, on or off; `service`, the service it hits (the empty string for none); `bytes`,
 * what each request keeps.
 */
export type FaultFlagKind = 'share' | 'delay' | 'switch' | 'service' | 'bytes';

/**
 * The flags that break the running shop on purpose (docs/observability.md, "Fault flags"), defined in
 * flagd's format by the data service (services/data/src/flags/shop.flagd.json) and evaluated by every
 * service through OpenFeature. Each is off by default: its variant `off` gives the value that changes nothing.
 */
export const FAULT_FLAGS = {
  orderPlacementFailure: { service: 'orders', kind: 'share' },
  reservationReplyDelay: { service: 'products', kind: 'delay' },
  catalogReadDelay: { service: 'products', kind: 'delay' },
  productsConsumerLag: { service: 'products', kind: 'delay' },
  mediaVariantDelay: { service: 'media', kind: 'delay' },
  mediaVariantFailure: { service: 'media', kind: 'share' },
  outboxRelayPaused: { service: 'every service', kind: 'switch' },
  readinessProbeFailure: { service: 'every service', kind: 'service' },
  usersMemoryLeak: { service: 'users', kind: 'bytes' },
} as const satisfies Record<string, { service: string; kind: FaultFlagKind }>;

export type FaultFlagKey = keyof typeof FAULT_FLAGS;

/** The flags' keys, in the order the admin screen lists them. */
export const FAULT_FLAG_KEYS = Object.keys(FAULT_FLAGS) as FaultFlagKey[];

/** Every flag's variant that changes nothing; a flag is off when it is chosen. */
export const FLAG_OFF_VARIANT = 'off';

/** Where admins read and switch the flags, relative to the site root. */
export const FEATURE_FLAGS_API = '/api/data/flags';

/** A flag as the admin screen shows it: its variants and the one chosen. */
export type FeatureFlag = Schema<'FeatureFlagResponse'>;

/** Body of `PUT api/data/flags/:key` (admins). */
export type SwitchFeatureFlagRequest = Schema<'SwitchFeatureFlagDto'>;
