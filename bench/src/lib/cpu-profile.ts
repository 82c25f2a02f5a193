// A CPU profile of this process's main thread (the gateway, as the bench runs it) over one piece of work,
// when BENCH_CPU_PROFILE names a folder: the profile that says where a hop's time goes, written beside
// the figures it explains. The sampling costs CPU itself, so a profiled run's figures are not the record's.
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';

/** The folder profiles go to, or undefined when none is asked for. */
export const PROFILE_DIR = process.env['BENCH_CPU_PROFILE'] || undefined;

/**
 * Runs `work`; with BENCH_CPU_PROFILE set, samples this thread meanwhile (every 100 µs) and writes
 * `<folder>/<name>.cpuprofile`, which Chrome's DevTools (Performance) and speedscope open.
 */
export async function profiled<T>(name: string, work: () => Promise<T>): Promise<T> {
  if (!PROFILE_DIR) return work();
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
    const result = await work();
    const { profile } = await session.post('Profiler.stop');
    mkdirSync(PROFILE_DIR, { recursive: true });
    const file = join(PROFILE_DIR, `${name}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    console.log(`  CPU profile of this process's main thread: ${file}`);
    return result;
  } finally {
    session.disconnect();
  }
}
