import { describe, expect, it } from 'vitest';
import { type MemorySample, memoryGrowth } from './soak-report.js';

/** Samples every 10 s for 480 s of one copy whose memory follows `mb(t)`. */
const series = (mb: (atS: number) => number): MemorySample[] =>
  Array.from({ length: 49 }, (_, i) => ({ atS: i * 10, products: mb(i * 10) }));

describe('memoryGrowth', () => {
  it('does not call a sawtooth that ends high a leak', () => {
    // Climbs 200 -> 340 MB over 180 s, drops back, climbs again: the run ends near a top.
    const sawtooth = series((t) => 200 + (140 * (t % 180)) / 180);
    expect(memoryGrowth(sawtooth, ['products'])['products']!.growth).toBeLessThanOrEqual(0.1);
  });

  it('finds a leak under the same sawtooth', () => {
    // The same cycle on a floor that rises 30 MB a minute.
    const leaking = series((t) => 200 + (t / 60) * 30 + (140 * (t % 180)) / 180);
    expect(memoryGrowth(leaking, ['products'])['products']!.growth).toBeGreaterThan(0.1);
  });

  it('finds steady growth with no collection at all', () => {
    const climbing = series((t) => 200 + t / 4);
    expect(memoryGrowth(climbing, ['products'])['products']!.growth).toBeGreaterThan(0.1);
  });
});
