import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The services' own logs, read from a moment on. A log holds every line since the stack started,
 * earlier tests' included: a test that counts lines must count only those written after its own start.
 */

/** Where each named log (`orders`, `orders-2`) ended at a moment: the byte after its last whole line. */
export type LogMark = Record<string, number>;

const read = (logDir: string, instance: string) => readFileSync(join(logDir, `${instance}.log`));

/** Marks where each named log ends now; `linesSince` reads only what comes after. */
export function markLogs(logDir: string, instances: string[]): LogMark {
  return Object.fromEntries(
    instances.map((instance) => [instance, read(logDir, instance).lastIndexOf('\n') + 1]),
  );
}

/**
 * The lines of one copy's log (`products-2`), all of them or only those after `since`. A copy
 * restarted by the runner appends to the same file, so a mark stays valid across a restart.
 */
export function linesSince(logDir: string, instance: string, since?: LogMark): string[] {
  const from = since ? since[instance] : 0;
  if (from === undefined) throw new Error(`no mark for the log of ${instance}`);
  return read(logDir, instance).subarray(from).toString('utf8').split('\n');
}

/** The JSON lines of one copy's log holding `text`, all of them or only those after `since`. */
export function jsonLinesSince(
  logDir: string,
  instance: string,
  text: string,
  since?: LogMark,
): Record<string, unknown>[] {
  return linesSince(logDir, instance, since)
    .filter((line) => line.includes(text))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
