// First: the SDK starts before anything it instruments is loaded (see in-memory-telemetry.ts).
import { telemetry } from './telemetry/in-memory-telemetry';
import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeatureFlags } from '../src/flags/feature-flags';
import { flagSetFile } from '../testing/flag-set-file';
import type { OutboxEntry } from '../src/outbox/outbox.schema';
import type { Thing as ThingFields } from './test-app.module';
import { type TracedApp, consumedEventOf, startTracedApp } from './telemetry/traced-app';

// The fault flags every service has through the kit (docs/observability.md, "Fault flags"): its readiness
// probe failing, and its outbox relay paused. The app reads them from a flag set file, as the services'
// own tests do (the cluster syncs the same set from the data service).

const flagFile = flagSetFile({
  readinessProbeFailure: { off: '', things: 'things', orders: 'orders' },
  outboxRelayPaused: { off: false, on: true },
});

type Thing = ThingFields & { outbox?: OutboxEntry[] };

let traced: TracedApp;
let flags: FeatureFlags;

beforeAll(async () => {
  traced = await startTracedApp('kit-faults', { FLAGS_SOURCE: flagFile.source });
  flags = traced.app.get(FeatureFlags);
});

afterAll(async () => {
  await traced?.close();
  await telemetry.shutdown();
  flagFile.remove();
});

const ready = async () => {
  const response = await fetch(`${traced.base}/health/ready`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe('the fault flags of every service', () => {
  it('readinessProbeFailure fails the readiness probe of the service it names, and of no other', async () => {
    expect((await ready()).status).toBe(200);

    await flagFile.switchTo(flags, { readinessProbeFailure: 'orders' });
    expect((await ready()).status).toBe(200);

    await flagFile.switchTo(flags, { readinessProbeFailure: 'things' });
    expect(await ready()).toEqual({
      status: 503,
      body: { message: 'Not ready: the fault flag readinessProbeFailure names things' },
    });
    // Alive all the same: only readiness says no.
    expect((await fetch(`${traced.base}/health/live`)).status).toBe(200);

    await flagFile.switchTo(flags, {});
    expect(await ready()).toEqual({
      status: 200,
      body: { status: 'ok', checks: { mongo: 'up', nats: 'up' } },
    });
  });

  it('outboxRelayPaused keeps every event in its outbox until it is off, then publishes each once', async () => {
    await flagFile.switchTo(flags, { outboxRelayPaused: 'on' });
    const ids = [await traced.make('held 1'), await traced.make('held 2')];
    // Several of the relay's passes (one a second) go by: none publishes.
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    const heard = () =>
      traced.consumed.filter((each) => ids.includes((each.event.data as { id: string }).id));
    expect(heard()).toEqual([]);
    // They wait in their documents' outboxes.
    const things = traced.app.get<Model<Thing>>(getModelToken('Thing'));
    const waiting = await things
      .find({ _id: { $in: ids } })
      .select('+outbox')
      .lean();
    expect(waiting.map((thing) => thing.outbox?.length)).toEqual([1, 1]);

    await flagFile.switchTo(flags, {});
    for (const id of ids) await consumedEventOf(traced, id);
    // Published once each: a pass after the catch-up finds nothing more to send.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(
      heard()
        .map((each) => (each.event.data as { id: string }).id)
        .sort(),
    ).toEqual([...ids].sort());
  });
});
