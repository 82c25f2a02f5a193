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
