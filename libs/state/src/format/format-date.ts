// Made at the first date shown, not when the module loads: building a date formatter costs a few milliseconds
// of the page's start-up (more on a phone), and most screens show no date.
let enUsLong24h: Intl.DateTimeFormat | undefined;

/**
 * `'2026-11-23T14:05:00Z'` → `'November 23, 2026 at 14:05'` in the browser's time zone (en-US long,
 * 24-hour: docs/product/rules.md, "Display"); '' for a missing or unreadable date, so a table cell stays
 * empty rather than 'Invalid Date'.
 */
export function formatDate(value: string | number | Date | null | undefined, timeZone?: string): string {
  if (value === null || value === undefined || value === '') return '';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const formatter = timeZone
    ? new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short', hourCycle: 'h23', timeZone })
    : (enUsLong24h ??= new Intl.DateTimeFormat('en-US', {
        dateStyle: 'long',
        timeStyle: 'short',
        hourCycle: 'h23',
      }));
  return formatter.format(date);
}
