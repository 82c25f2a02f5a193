import { type Counter, type Meter, metrics } from '@opentelemetry/api';

const SHOP_METER = '@shop/service-kit';

/**
 * The meter of the shop's own numbers. Asked for when an instrument is made (in a constructor, once
 * the SDK runs): a meter taken before `startTelemetry` would stay a no-op for good.
 */
export function shopMeter(): Meter {
  return metrics.getMeter(SHOP_METER);
}

/**
 * A counter of business events, named `shop.<domain>.<what>` (Prometheus shows `shop_<domain>_<what>_total`).
 * Without the SDK (tests, OTEL_SDK_DISABLED) it counts nothing and costs nothing.
 */
export function shopCounter(name: `shop.${string}`, description: string): Counter {
  return shopMeter().createCounter(name, { description });
}

/**
 * The `reason` label of a refused request: the name `reasons` gives its HTTP status, `status_<n>`
 * for another 4xx, and `unavailable` for a 5xx or an error that is not an HTTP answer.
 */
export function refusalReason(error: unknown, reasons: Record<number, string>): string {
  const status = (error as { getStatus?: () => unknown } | null)?.getStatus?.();
  if (typeof status !== 'number' || status >= 500) return 'unavailable';
  return reasons[status] ?? `status_${status}`;
}
