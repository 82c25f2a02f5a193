// First: the SDK starts before anything it instruments is loaded (see in-memory-telemetry.ts).
import { finishedSpans, telemetry } from './telemetry/in-memory-telemetry';
import { trace } from '@opentelemetry/api';
import { until } from '@shop/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeatureFlags, parseFlagSource } from '../src/flags/feature-flags';
import { flagSetFile } from '../testing/flag-set-file';

const evaluationSpans = () =>
  finishedSpans.getFinishedSpans().filter((span) => span.name === 'feature_flag.evaluation');

describe('FeatureFlags (flagd in-process provider, OpenFeature)', () => {
  // The shop's two kinds of flag this test switches; the others are missing from the set, which a
  // provider answers as an error: off.
  const flagFile = flagSetFile({
    orderPlacementFailure: { off: 0, '100%': 1 },
    readinessProbeFailure: { off: '', orders: 'orders', products: 'products' },
  });
  let flags: FeatureFlags;

  beforeAll(() => {
    flagFile.choose({ orderPlacementFailure: '100%', readinessProbeFailure: 'products' });
    flags = new FeatureFlags('orders', parseFlagSource(flagFile.source));
  });

  afterAll(async () => {
    await flags?.close();
    await telemetry.shutdown();
    flagFile.remove();
  });

  it("reads its flags from the source, each evaluation of an on flag a span in the request's trace", async () => {
    // Every flag answers off until the provider has read the set.
    await until(async () => (await flags.number('orderPlacementFailure')) === 1, 20_000);
    expect(await flags.string('readinessProbeFailure')).toBe('products');

    finishedSpans.reset();
    const tracer = trace.getTracer('feature-flags-test');
    const request = await tracer.startActiveSpan('POST /api/orders', async (span) => {
      expect(await flags.fails('orderPlacementFailure')).toBe(true);
      span.end();
      return span;
    });
    const [evaluation, ...more] = evaluationSpans();
    expect(evaluation, "the flag's evaluation as a span").toBeDefined();
    expect(more).toEqual([]);
    expect(evaluation!.spanContext().traceId).toBe(request.spanContext().traceId);
    expect(evaluation!.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    expect(evaluation!.attributes).toMatchObject({
      'feature_flag.key': 'orderPlacementFailure',
      'feature_flag.result.variant': '100%',
      'feature_flag.provider.name': 'flagd',
    });
  });

  it('follows a switch to off without a restart, and then evaluates nothing through the SDK', async () => {
    await flagFile.switchTo(flags, {});
    finishedSpans.reset();
    expect(await flags.fails('orderPlacementFailure')).toBe(false);
    expect(await flags.string('readinessProbeFailure')).toBe('');
    // Missing from the set: off.
    expect(await flags.boolean('outboxRelayPaused')).toBe(false);
    expect(evaluationSpans()).toEqual([]);
  });
});

describe('parseFlagSource (FLAGS_SOURCE)', () => {
  it('reads a flagd sync service and a flag set file', () => {
    expect(parseFlagSource('grpc://data:8015')).toEqual({ kind: 'grpc', host: 'data', port: 8015 });
    expect(parseFlagSource('grpc://[::1]:8015')).toEqual({ kind: 'grpc', host: '::1', port: 8015 });
    expect(parseFlagSource('file:///etc/flags/shop.flagd.json')).toEqual({
      kind: 'file',
      path: '/etc/flags/shop.flagd.json',
    });
  });

  it('refuses anything else with the forms it takes', () => {
    expect(() => parseFlagSource('http://data:8015')).toThrow(/grpc:\/\/host:port or file:\/\/\/path/);
    expect(() => parseFlagSource('grpc://data')).toThrow(/grpc:\/\/host:port or file:\/\/\/path/);
  });

  it('is all off without a source', async () => {
    const none = FeatureFlags.allOff('orders');
    expect(await none.number('orderPlacementFailure')).toBe(0);
    expect(await none.string('readinessProbeFailure')).toBe('');
  });
});
