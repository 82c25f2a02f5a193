import { describe, expect, it } from 'vitest';
import { GatewayEnvError } from '../config/gateway-env';
import { samplerFrom } from './request-tracer';

describe('samplerFrom', () => {
  it('samples every trace the caller samples, and every new one, by default', () => {
    expect(samplerFrom({}, undefined).toString()).toMatch(/^ParentBased\{root=AlwaysOnSampler,/);
  });

  it("takes the plugin's sampling_rate for new traces when the environment names no sampler", () => {
    expect(samplerFrom({}, 0.25).toString()).toMatch(/^ParentBased\{root=TraceIdRatioBased\{0\.25\},/);
  });

  it('lets OTEL_TRACES_SAMPLER and its argument win over the file', () => {
    const env = { OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.5' };
    expect(samplerFrom(env, 1).toString()).toBe('TraceIdRatioBased{0.5}');
    expect(samplerFrom({ OTEL_TRACES_SAMPLER: 'always_off' }, 1).toString()).toBe('AlwaysOffSampler');
    expect(
      samplerFrom(
        { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' },
        undefined,
      ).toString(),
    ).toMatch(/^ParentBased\{root=TraceIdRatioBased\{0\.1\},/);
  });

  it('refuses a sampler name or ratio it does not know, naming the variable', () => {
    expect(() => samplerFrom({ OTEL_TRACES_SAMPLER: 'jaeger_remote' }, undefined)).toThrow(GatewayEnvError);
    expect(() => samplerFrom({ OTEL_TRACES_SAMPLER: 'jaeger_remote' }, undefined)).toThrow(
      /OTEL_TRACES_SAMPLER/,
    );
    expect(() =>
      samplerFrom({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '2' }, undefined),
    ).toThrow(/OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1/);
  });
});
