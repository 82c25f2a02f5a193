import { ADMIN_ACTION, FAULT_FLAG_KEYS, type FeatureFlag } from '@shop/contracts';
import { freePort } from '@shop/testing';
import { FeatureFlags } from '@shop/service-kit';
import { type ServiceApp, adminActionsOn, startServiceApp } from '@shop/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppModule } from '../src/app.module';
import { type DataConfig, dataConfigSchema } from '../src/config/data.config';
import { FlagSyncServer } from '../src/flags/flag-sync.server';
import { flagSetProblems } from '../src/flags/flag-definitions';
import definitions from '../src/flags/shop.flagd.json';
import { type DataHarness, startData } from './support/data.harness';

let data: DataHarness;
let replica: ServiceApp<DataConfig>;
const followers: FeatureFlags[] = [];

/** A service's flags, synced from one data copy's flagd sync service as every service's are. */
function follower(port: number): FeatureFlags {
  const flags = new FeatureFlags('orders', { kind: 'grpc', host: '127.0.0.1', port });
  followers.push(flags);
  return flags;
}

/** Another copy of the data service on the same database (as Kubernetes runs two, or one restarted). */
const dataCopy = (env: Record<string, string>) =>
  startServiceApp({
    name: 'data',
    configSchema: dataConfigSchema,
    module: (context) => AppModule.register(context),
    env: { MONGO_URL: data.mongoUrl, JWT_PUBLIC_KEY: data.tokens.publicKeyPem, ...env },
  });

const syncPortOf = (app: ServiceApp['app']) => app.get(FlagSyncServer).port!;

beforeAll(async () => {
  data = await startData({
    env: { FLAGS_SYNC_PORT: '0', FLAGS_POLL_MS: '200' },
    events: [ADMIN_ACTION],
  });
  // A second copy on the same database, as Kubernetes runs two.
  replica = await dataCopy({ FLAGS_SYNC_PORT: '0', FLAGS_POLL_MS: '200' });
});

afterAll(async () => {
  await Promise.all(followers.map((flags) => flags.close()));
  await replica?.app.close();
  await data?.close();
});

const switchFlag = (key: string, variant: unknown, token = data.adminToken) =>
  data.call<FeatureFlag>('PUT', `/api/data/flags/${key}`, { token, body: { variant } });

describe('the flag definitions (shop.flagd.json)', () => {
  it("are a valid flagd flag set holding exactly the shop's fault flags, each off by default", () => {
    expect(flagSetProblems(definitions)).toEqual([]);
    expect(Object.keys(definitions.flags)).toEqual(FAULT_FLAG_KEYS);
  });

  it('are refused when a flag lacks its off variant, gives a value of the wrong kind or starts on', () => {
    const broken = structuredClone(definitions) as { flags: Record<string, Record<string, unknown>> };
    broken.flags['orderPlacementFailure'] = {
      ...broken.flags['orderPlacementFailure'],
      defaultVariant: '50%',
    };
    broken.flags['catalogReadDelay'] = {
      ...broken.flags['catalogReadDelay'],
      variants: { off: 0, slow: 'very' },
    };
    broken.flags['outboxRelayPaused'] = {
      ...broken.flags['outboxRelayPaused'],
      variants: { on: true },
      defaultVariant: 'on',
    };
    expect(flagSetProblems(broken)).toEqual([
      'flags.outboxRelayPaused: every fault flag needs a variant named "off"',
    ]);
    delete broken.flags['outboxRelayPaused'];
    expect(flagSetProblems(broken)).toEqual([
      'outboxRelayPaused: not defined',
      'orderPlacementFailure: must be off by default',
      'catalogReadDelay.slow: "very" is not a delay',
    ]);
  });
});

describe('GET api/data/flags', () => {
  it('is for admins only', async () => {
    await data.expectAdminOnly('GET', '/api/data/flags');
  });

  it('lists every fault flag with its variants, each off', async () => {
    const { status, body } = await data.call<FeatureFlag[]>('GET', '/api/data/flags', {
      token: data.adminToken,
    });
    expect(status).toBe(200);
    expect(body.map((flag) => flag.key)).toEqual(FAULT_FLAG_KEYS);
    expect(body.find((flag) => flag.key === 'orderPlacementFailure')).toEqual({
      key: 'orderPlacementFailure',
      description: definitions.flags.orderPlacementFailure.metadata.description,
      service: 'orders',
      variants: [
        { name: 'off', value: 0 },
        { name: '10%', value: 0.1 },
        { name: '50%', value: 0.5 },
        { name: '100%', value: 1 },
      ],
      variant: 'off',
    });
  });
});

describe('PUT api/data/flags/:key', () => {
  it('is for admins only', async () => {
    await data.expectAdminOnly('PUT', '/api/data/flags/orderPlacementFailure', { body: { variant: '10%' } });
  });

  it('refuses an unknown flag (404) and a variant the flag does not have (400), changing nothing', async () => {
    const refusals: [key: string, variant: unknown, status: number, message: string][] = [
      ['noSuchFlag', 'off', 404, 'Flag not found'],
      // Names every object has are no flag and no variant.
      ['constructor', 'off', 404, 'Flag not found'],
      ['orderPlacementFailure', 'constructor', 400, 'variant must be one of off, 10%, 50%, 100%'],
      ['orderPlacementFailure', '75%', 400, 'variant must be one of off, 10%, 50%, 100%'],
      ['orderPlacementFailure', 1, 400, 'variant must be a string'],
    ];
    for (const [key, variant, status, message] of refusals) {
      expect(await switchFlag(key, variant), `${key} ${String(variant)}`).toMatchObject({
        status,
        body: { message },
      });
    }
    const { body } = await data.call<FeatureFlag[]>('GET', '/api/data/flags', { token: data.adminToken });
    expect(body.every((flag) => flag.variant === 'off')).toBe(true);
  });

  it('switches a flag for every service, through either data copy, and the audit trail records who did', async () => {
    const here = follower(syncPortOf(data.app));
    const there = follower(syncPortOf(replica.app));
    expect(await here.number('orderPlacementFailure')).toBe(0);

    const { status, body } = await switchFlag('orderPlacementFailure', '50%');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      key: 'orderPlacementFailure',
      variant: '50%',
      switchedAt: expect.any(String),
    });

    // Both services' providers follow within the poll interval, without a restart.
    await expect
      .poll(() => here.number('orderPlacementFailure'), {
        timeout: 10_000,
        message: 'from the copy that took it',
      })
      .toBe(0.5);
    await expect
      .poll(() => there.number('orderPlacementFailure'), { timeout: 10_000, message: 'from the other copy' })
      .toBe(0.5);

    const [action] = await adminActionsOn(data, 'orderPlacementFailure', 1);
    expect(action).toMatchObject({
      action: 'flag.switched',
      target: { type: 'flag', id: 'orderPlacementFailure', label: 'orderPlacementFailure' },
      before: { variant: 'off' },
      after: { variant: '50%' },
    });

    // Off again: a switch to the variant it has is no action, and records nothing more.
    expect((await switchFlag('orderPlacementFailure', 'off')).status).toBe(200);
    expect((await switchFlag('orderPlacementFailure', 'off')).body.variant).toBe('off');
    await expect
      .poll(() => there.number('orderPlacementFailure'), {
        timeout: 10_000,
        message: 'off from the other copy',
      })
      .toBe(0);
    expect(await adminActionsOn(data, 'orderPlacementFailure', 2)).toHaveLength(2);
    // The audit trail keeps both, found by the flag's key.
    const trail = async () =>
      (
        await data.call<{ action: string }[]>('GET', '/api/data/audit?targetId=orderPlacementFailure', {
          token: data.adminToken,
        })
      ).body.map((entry) => entry.action);
    await expect.poll(trail).toEqual(['flag.switched', 'flag.switched']);
  });

  it('reaches a service that started before any data copy served the flags, switch after switch', async () => {
    const port = await freePort();
    // Its first connection fails: nothing listens there yet.
    const early = follower(port);
    // A flag on from the start tells when it follows.
    expect((await switchFlag('mediaVariantDelay', '1s')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const late = await dataCopy({ FLAGS_SYNC_PORT: String(port) });
    try {
      await expect
        .poll(() => early.number('mediaVariantDelay'), { timeout: 10_000, message: 'the flags as they were' })
        .toBe(1_000);
      // A flag switched on once it follows: flagd's provider reports no change after a failed first
      // connection, and an off flag is not evaluated until the service learns it is on.
      expect((await switchFlag('catalogReadDelay', '1s')).status).toBe(200);
      await expect
        .poll(() => early.number('catalogReadDelay'), { timeout: 10_000, message: 'the switch after' })
        .toBe(1_000);
    } finally {
      await switchFlag('catalogReadDelay', 'off');
      await switchFlag('mediaVariantDelay', 'off');
      await late.app.close();
    }
  });

  it('keeps the switches across a restart of the data service', async () => {
    expect((await switchFlag('readinessProbeFailure', 'products')).status).toBe(200);
    const again = await dataCopy({ FLAGS_SYNC_PORT: '0' });
    try {
      const flags = follower(syncPortOf(again.app));
      await expect
        .poll(() => flags.string('readinessProbeFailure'), { timeout: 10_000, message: 'after a restart' })
        .toBe('products');
    } finally {
      await again.app.close();
      await switchFlag('readinessProbeFailure', 'off');
    }
  });
});
