import { describe, expect, it } from 'vitest';
import { HOT_PATH_GOALS, goalFigure } from './figure.js';

describe('a figure held to a goal', () => {
  const held = (value: number, goal: number, better: 'higher' | 'lower', source?: string) =>
    goalFigure({
      id: 'x.goal',
      section: 'x',
      measured: { what: 'blocking time', value, unit: 'ms' },
      goal: { value: goal, source },
      better,
    });

  it('misses when the measure is past the goal, and says by how much', () => {
    const missed = held(120, 100, 'lower');
    expect(missed.pass).toBe(false);
    expect(missed.ratio).toBeCloseTo(1.2);
    expect(missed.reference).toEqual({ what: `the goal (${HOT_PATH_GOALS})`, value: 100, unit: 'ms' });
  });

  it("names where its goal is written down: the hot paths' goals unless told", () => {
    expect(HOT_PATH_GOALS).toMatch(/^docs\/performance\.md/);
    expect(held(1, 2, 'lower', 'docs/rendering.md').reference.what).toBe('the goal (docs/rendering.md)');
  });

  it('passes at the goal or on its good side, either way round', () => {
    expect(held(100, 100, 'lower').pass).toBe(true);
    expect(held(30, 100, 'lower').pass).toBe(true);
    expect(held(0.99, 0.98, 'higher').pass).toBe(true);
    expect(held(0.9, 0.98, 'higher').pass).toBe(false);
  });
});
