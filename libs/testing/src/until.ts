export interface UntilOptions {
  /** How long to keep asking (default 10 s). */
  timeoutMs?: number;
  /** How long to wait between two asks (default 25 ms). */
  intervalMs?: number;
}

/**
 * Asks `check` until it answers something other than `undefined` or `false`, and answers that: a
 * found value, or `true`. Past the time limit it throws `condition not met in time`. A `check` that
 * throws ends the wait with its error. A number for `options` is the time limit.
 */
export async function until<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  options: UntilOptions | number = {},
): Promise<T> {
  const { timeoutMs = 10_000, intervalMs = 25 } =
    typeof options === 'number' ? { timeoutMs: options } : options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await check();
    if (found !== undefined && found !== false) return found;
    if (Date.now() > deadline) throw new Error(`condition not met in time (${timeoutMs} ms)`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
