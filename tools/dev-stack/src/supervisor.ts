import type { ExitInfo, ManagedProcess } from '@shop/infra';

/** One start of a part: the process, stopped on purpose or watched until it ends. */
export type PartRun = Pick<ManagedProcess, 'pid' | 'exited' | 'stop'>;

/** A part kept running: restarted when it ends unexpectedly, until `stop()`. */
export interface SupervisedPart {
  readonly name: string;
  /** The current run's process id (changes with each restart). */
  pid(): number | undefined;
  /** How many times it was restarted after ending unexpectedly. */
  restarts(): number;
  stop(): Promise<void>;
}

export interface SupervisorOptions {
  log: (line: string) => void;
  /** First wait before a restart; doubles on each failed or short-lived run (500 ms). */
  initialDelayMs?: number;
  /** Longest wait between restarts (10 s). */
  maxDelayMs?: number;
  /** A run this long counts as healthy: the next crash waits the initial delay again (60 s). */
  healthyAfterMs?: number;
  /**
   * Asked when a run ends: false while the whole shop is shutting down. A terminal's Ctrl-C reaches
   * every process of the group at once, so parts end on their own before the runner stops them.
   */
  shouldRestart?: () => boolean;
}

/** 'exit code 1' or 'signal SIGKILL'. */
export function describeExit(exit: ExitInfo): string {
  return exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code ?? 'unknown'}`;
}

/** The wait before the next restart: doubled after a short run, back to the start after a healthy one. */
export function nextDelay(
  previous: number | undefined,
  ranForMs: number,
  options: Required<Pick<SupervisorOptions, 'initialDelayMs' | 'maxDelayMs' | 'healthyAfterMs'>>,
): number {
  if (previous === undefined || ranForMs >= options.healthyAfterMs) return options.initialDelayMs;
  return Math.min(previous * 2, options.maxDelayMs);
}

/**
 * Starts a part and keeps it running as Kubernetes keeps a pod: when it ends without being asked to,
 * the console says what died and how, it is started again after a backoff (0.5 s doubling to 10 s,
 * reset after a minute of health), and the console says when it is ready again. The first start's
 * failure is thrown to the caller, who has nothing running yet.
 */
export async function supervise(
  name: string,
  start: () => Promise<PartRun>,
  options: SupervisorOptions,
): Promise<SupervisedPart> {
  const settings = {
    initialDelayMs: options.initialDelayMs ?? 500,
    maxDelayMs: options.maxDelayMs ?? 10_000,
    healthyAfterMs: options.healthyAfterMs ?? 60_000,
  };
  let current: PartRun | undefined = await start();
  let stopping = false;
  let restarts = 0;
  let delay: number | undefined;
  let wakeUp: (() => void) | undefined;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const watch = (run: PartRun, startedAt: number): void => {
    void run.exited.then(async (exit) => {
      if (stopping || run !== current || options.shouldRestart?.() === false) return;
      current = undefined;
      let ranForMs = Date.now() - startedAt;
      let why = `exited unexpectedly (${describeExit(exit)})`;
      while (!stopping && options.shouldRestart?.() !== false) {
        delay = nextDelay(delay, ranForMs, settings);
        options.log(`✗ ${name} ${why}; restarting in ${(delay / 1000).toFixed(1)} s`);
        await sleep(delay);
        if (stopping) return;
        const attemptAt = Date.now();
        try {
          const next = await start();
          if (stopping) {
            await next.stop();
            return;
          }
          current = next;
          restarts += 1;
          options.log(
            `✓ ${name} is ready again (${((Date.now() - attemptAt) / 1000).toFixed(1)} s to start)`,
          );
          watch(next, Date.now());
          return;
        } catch (error) {
          ranForMs = 0;
          why = `failed to start again (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`;
        }
      }
    });
  };
  watch(current, Date.now());

  return {
    name,
    pid: () => current?.pid,
    restarts: () => restarts,
    async stop() {
      stopping = true;
      wakeUp?.();
      await current?.stop();
      current = undefined;
    },
  };
}
