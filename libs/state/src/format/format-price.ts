const EN_US_AMOUNT = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** `1234.5, '$'` → `'$1,234.50'`: the settings' currency symbol, en-US grouping, two decimals. */
export function formatPrice(amount: number, currencySymbol: string): string {
  const sign = amount < 0 ? '-' : '';
  return `${sign}${currencySymbol}${EN_US_AMOUNT.format(Math.abs(amount))}`;
}
