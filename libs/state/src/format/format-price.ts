/**
 * `1234.5, '$'` → `'$1,234.50'`: the settings' currency symbol, en-US grouping, two decimals, rounded as
 * `Intl.NumberFormat('en-US')` rounds (half away from zero, on the number as it is written: 1.005 → 1.01).
 *
 * Written without `Intl`: a page's first `Intl` formatter loads the browser's locale data, about 30 ms of
 * main thread (125 ms under Lighthouse's mobile throttling) in one task nothing can split, and prices are
 * on the first screen of every page (docs/performance.md, "The hot paths' goals"). The format is fixed.
 */
export function formatPrice(amount: number, currencySymbol: string): string {
  const sign = amount < 0 ? '-' : '';
  const size = Math.abs(amount);
  if (!Number.isFinite(size)) return `${sign}${currencySymbol}${size}`;
  // Shifted in its decimal writing, not multiplied: 1.005 * 100 is 100.49999999999999.
  const shifted = Number(`${size}e2`);
  const cents = Math.round(Number.isFinite(shifted) ? shifted : size * 100);
  const whole = String(Math.floor(cents / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}${currencySymbol}${whole}.${String(cents % 100).padStart(2, '0')}`;
}
