/** Answers `work`'s result, or rejects with 'timed out' once `ms` have passed. */
export async function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  try {
    return await Promise.race([work, limit]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Waits for `work` to settle, but no longer than `ms`, and never throws: for shutdown steps that
 * must not hold the process (say, closing a subscription while the broker is away).
 */
export async function waitAtMost(ms: number, work: Promise<unknown> | undefined): Promise<void> {
  await within(ms, Promise.resolve(work)).catch(() => undefined);
}
