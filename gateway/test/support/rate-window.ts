/** Waits until `margin` ms are left before a fixed window of `periodMs` could roll over, so counts stay put. */
export async function awayFromWindowEdge(periodMs: number, margin = 3_000): Promise<void> {
  const intoWindow = Date.now() % periodMs;
  if (periodMs - intoWindow < margin) {
    await new Promise((resolve) => setTimeout(resolve, periodMs - intoWindow + 50));
  }
}
