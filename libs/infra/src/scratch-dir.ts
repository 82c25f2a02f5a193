import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Starts something on a new temporary folder of its own (its name starting with `prefix`): the
 * folder is removed once the started thing's `stop` has run, or at once when the start fails.
 */
export async function startOnScratchDir<T extends { stop(): Promise<void> }>(
  prefix: string,
  start: (dir: string) => Promise<T>,
): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const remove = (): void => rmSync(dir, { recursive: true, force: true });
  try {
    const started = await start(dir);
    return {
      ...started,
      stop: async () => {
        await started.stop();
        remove();
      },
    };
  } catch (error) {
    remove();
    throw error;
  }
}
