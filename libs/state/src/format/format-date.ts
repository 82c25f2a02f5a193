const EN_US_LONG_24H = new Intl.DateTimeFormat('en-US', {
  dateStyle: 'long',
  timeStyle: 'short',
  hourCycle: 'h23',
});

/**
 * `'2026-11-23T14:05:00Z'` → `'November 23, 2026 at 14:05'` in the browser's time zone (spec §9: en-US
 * long, 24-hour); '' for a missing or unreadable date, so a table cell stays empty rather than 'Invalid Date'.
 */
export function formatDate(value: string | number | Date | null | undefined, timeZone?: string): string {
  if (value === null || value === undefined || value === '') return '';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const formatter = timeZone
    ? new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short', hourCycle: 'h23', timeZone })
    : EN_US_LONG_24H;
  return formatter.format(date);
}
