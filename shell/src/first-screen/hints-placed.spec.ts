import { afterEach, describe, expect, it, vi } from 'vitest';
import { expectSettlesAfter } from './__tests__/settles';
import { hintsPlaced, markHintsPlacing } from './hints-placed';

const HINTS_PLACED = Symbol.for('shop.first-screen-hints-placed');

describe('waiting for the first screen’s hints', () => {
  afterEach(() => {
    delete (globalThis as Record<symbol, unknown>)[HINTS_PLACED];
    vi.useRealTimers();
  });

  it('resumes the shell after the hints are placed, in a later task', async () => {
    vi.useFakeTimers();
    let place!: () => void;
    markHintsPlacing(new Promise<void>((resolve) => (place = resolve)));
    const resumed = vi.fn();
    void hintsPlaced(10_000).then(resumed);

    place();
    await vi.advanceTimersByTimeAsync(0);
    expect(resumed).toHaveBeenCalledOnce();
  });

  it('does not hold the shell back when a call hangs, nor when nothing was started', async () => {
    vi.useFakeTimers();
    markHintsPlacing(new Promise<void>(() => undefined));
    await expectSettlesAfter(hintsPlaced(500), 500);

    delete (globalThis as Record<symbol, unknown>)[HINTS_PLACED];
    await expect(hintsPlaced(500)).resolves.toBeUndefined();
  });

  it('counts a failed hint as placed', async () => {
    markHintsPlacing(Promise.reject(new Error('offline')));
    await expect(hintsPlaced(10_000)).resolves.toBeUndefined();
  });
});
