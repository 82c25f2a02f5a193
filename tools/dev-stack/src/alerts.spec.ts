import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '@shop/infra';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SHIPPED_RULES, durationSeconds, scaledRuleGroups } from './alerts.js';

const shipped = parse(readFileSync(join(repoRoot(), SHIPPED_RULES), 'utf8')) as unknown;

describe('scaledRuleGroups', () => {
  it('leaves the shipped rules as they are at 1', () => {
    const { groups } = scaledRuleGroups(shipped, 1);
    expect(groups).toEqual((shipped as { spec: { groups: unknown } }).spec.groups);
  });

  it('divides every range, `for` and interval by the speed-up, and nothing else', () => {
    const { groups } = scaledRuleGroups(shipped, 60);
    const rules = groups.flatMap((group) => group.rules);
    const byName = (name: string) => rules.find((rule) => rule.record === name || rule.alert === name)!;
    expect(byName('shop:checkout_availability:error_ratio_rate1h').expr).toBe(
      '(sum(rate(kong_http_requests_total{service="orders",code=~"5.."}[60s])) or vector(0)) / sum(rate(kong_http_requests_total{service="orders"}[60s]))',
    );
    expect(byName('shop:checkout_availability:error_ratio_rate5m').expr).toContain('[5s]');
    expect(byName('shop:checkout_latency:error_ratio_rate3d').expr).toContain('[4320s]');
    const fast = byName('CheckoutAvailabilityBudgetBurningFast');
    expect(fast.for).toBe('2s');
    // Thresholds stay: the same burn rate fires, only sooner.
    expect(fast.expr).toContain('> (14.4 * 0.005)');
    expect(groups.find((group) => group.name === 'shop-checkout-sli')!.interval).toBe('500ms');
  });

  it('divides an alert threshold that is an age in seconds, and no other threshold', () => {
    const { groups } = scaledRuleGroups(shipped, 12);
    const rules = groups.flatMap((group) => group.rules);
    const byName = (name: string) => rules.find((rule) => rule.alert === name)!;
    expect(byName('ShopOutboxStuck')).toMatchObject({
      expr: 'max by (namespace, pod) (shop_outbox_oldest_age_seconds) > 25',
      for: '25s',
    });
    expect(byName('ShopJetStreamConsumerBehind').expr).toBe(
      'max by (namespace, consumer) (shop_jetstream_consumer_oldest_pending_age_seconds) > 25',
    );
    // A gauge in seconds that is not an age (a delay) keeps its threshold.
    const delay = { alert: 'Slow', expr: 'max(nodejs_eventloop_delay_mean_seconds) > 0.5', for: '1m' };
    const withDelay = { spec: { groups: [{ name: 'delay', rules: [delay] }] } };
    expect(scaledRuleGroups(withDelay, 12).groups[0]!.rules[0], 'a delay is not an age').toEqual({
      ...delay,
      for: '5s',
    });
    // A latency SLI's bucket bound is a time, but not a threshold of an alert: it stays.
    const latency = rules.find((rule) => rule.record === 'shop:checkout_latency:error_ratio_rate5m')!;
    expect(latency.expr).toContain('le="1"');
  });
});

describe('durationSeconds', () => {
  it('reads Prometheus durations, compound ones too', () => {
    expect(durationSeconds('5m')).toBe(300);
    expect(durationSeconds('1h30m')).toBe(5_400);
    expect(durationSeconds('3d')).toBe(259_200);
    expect(durationSeconds('250ms')).toBe(0.25);
  });

  it('refuses what is not one', () => {
    expect(() => durationSeconds('5 minutes')).toThrow('not a duration: 5 minutes');
    expect(() => durationSeconds('')).toThrow('not a duration');
  });
});
