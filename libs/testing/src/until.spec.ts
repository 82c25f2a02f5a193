import { describe, expect, it } from 'vitest';
import { until } from './until.js';

describe('until', () => {
  it('answers the first value that is neither undefined nor false', async () => {
    let asks = 0;
    const found = await until(() => (++asks === 3 ? { asks } : undefined), { intervalMs: 1 });
    expect(found).toEqual({ asks: 3 });
  });

  it('takes an async check and answers true for a condition', async () => {
    let asks = 0;
    expect(await until(async () => ++asks >= 2, 1_000)).toBe(true);
    expect(asks).toBe(2);
  });

  it('keeps 0 and the empty string: only undefined and false mean "not yet"', async () => {
    expect(await until(() => 0)).toBe(0);
    expect(await until(() => '')).toBe('');
  });

  it('throws once the time is up', async () => {
    const started = Date.now();
    await expect(until(() => false, { timeoutMs: 60, intervalMs: 10 })).rejects.toThrow(
      'condition not met in time (60 ms)',
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(60);
  });

  it("ends the wait with a check's own error", async () => {
    await expect(
      until(() => {
        throw new Error('broken check');
      }),
    ).rejects.toThrow('broken check');
  });
});
