import { type PartRun, supervise } from '../supervisor.js';

/** Anything the stack runs and stops: a process, a static server, the gateway. */
export interface StoppablePart {
  stop(): Promise<void>;
  pid?: () => number | undefined;
}

/**
 * The parts of one stack by name, in start order: each process is started through `keep`, supervised
 * (restarted with backoff when it dies, as npm start does) or started once; `stopAll` stops them in
 * reverse order and tells every supervisor first not to restart what ends with the rest.
 */
export class Parts {
  private readonly running = new Map<string, StoppablePart>();
  private readonly order: string[] = [];
  private shuttingDown = false;

  constructor(private readonly options: { supervise?: boolean; log: (line: string) => void }) {}

  add(name: string, part: StoppablePart): void {
    this.running.set(name, part);
    if (!this.order.includes(name)) this.order.push(name);
  }

  /** Starts a process part; a supervised one is started again whenever it ends unexpectedly. */
  async keep(name: string, start: () => Promise<PartRun>): Promise<void> {
    if (this.options.supervise) {
      const part = await supervise(name, start, {
        log: this.options.log,
        shouldRestart: () => !this.shuttingDown,
      });
      this.add(name, { stop: () => part.stop(), pid: () => part.pid() });
    } else {
      const run = await start();
      this.add(name, { stop: run.stop, pid: () => run.pid });
    }
  }

  has(name: string): boolean {
    return this.running.has(name);
  }

  pidOf(name: string): number | undefined {
    return this.running.get(name)?.pid?.();
  }

  async stop(name: string): Promise<void> {
    await this.running.get(name)?.stop();
    this.running.delete(name);
  }

  /**
   * From now on no part is restarted: the stack is on its way out (a terminal's Ctrl-C has reached every
   * part) and stops them once what it waits for first (the background build) is over.
   */
  holdRestarts(): void {
    this.shuttingDown = true;
  }

  async stopAll(): Promise<void> {
    // Set first thing on the way out, so no supervisor restarts a part that ended with the rest.
    this.shuttingDown = true;
    for (const name of [...this.order].reverse()) {
      await this.running
        .get(name)
        ?.stop()
        .catch(() => undefined);
      this.running.delete(name);
    }
  }
}
