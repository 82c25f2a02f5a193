import { expect, vi } from 'vitest';

/** On fake timers: `wait` has not settled a second after it began, and settles once `release` has run. */
export async function expectSettlesOn(wait: Promise<unknown>, release: () => void): Promise<void> {
  const settled = vi.fn();
  void wait.then(settled);
  await vi.advanceTimersByTimeAsync(1_000);
  expect(settled).not.toHaveBeenCalled();
  release();
  await vi.advanceTimersByTimeAsync(0);
  expect(settled).toHaveBeenCalledOnce();
}

/** On fake timers: `wait` gives up at its longest wait of `ms`, not a millisecond before. */
export async function expectSettlesAfter(wait: Promise<unknown>, ms: number): Promise<void> {
  const settled = vi.fn();
  void wait.then(settled);
  await vi.advanceTimersByTimeAsync(ms - 1);
  expect(settled).not.toHaveBeenCalled();
  await vi.advanceTimersByTimeAsync(1);
  expect(settled).toHaveBeenCalledOnce();
}
