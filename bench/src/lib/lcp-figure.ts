// The LCP figures' comparison (lcp.ts, server-rendering.ts): the shop's page against a static page of the same
// content, each the median of its Lighthouse runs.
import { median } from './lighthouse.js';

/** What an LCP figure compares: the median LCP of the shop's runs against the median of the static page's. */
export function shopLcpAgainstStatic(
  runs: Record<'shop' | 'static', { lcpMs: number }[]>,
  what: Record<'shop' | 'static', string>,
) {
  return {
    measured: { what: what.shop, value: median(runs.shop.map((r) => r.lcpMs)), unit: 'ms' },
    reference: { what: what.static, value: median(runs.static.map((r) => r.lcpMs)), unit: 'ms' },
    better: 'lower',
  } as const;
}
