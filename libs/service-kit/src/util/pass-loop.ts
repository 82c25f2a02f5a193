/** Why a pass runs: `nudge` (asked for: the start, a write, a pass that left work behind) or `timer` (nobody asked for an interval). */
export type PassReason = 'nudge' | 'timer';

export interface PassLoopOptions {
  /** One pass over whatever work is due. */
  pass: (reason: PassReason) => Promise<unknown>;
  /** How long after a pass the next one runs when nobody nudges; also the retry delay after a failure. */
  intervalMs: number;
  /** A pass failed (the loop goes on: the next pass is at the interval). */
  onError: (error: unknown) => void;
}

/**
 * Background work done in passes: one runs at `start`, another whenever someone `nudge`s and, when
 * nobody does, `intervalMs` after the last one ended. Passes never overlap: a nudge during a pass
 * runs one more pass right after it (however many nudges came). `stop` waits for the running pass.
 */
export class PassLoop {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = true;

  constructor(private readonly options: PassLoopOptions) {}

  start(): void {
    this.stopped = false;
    this.nudge();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Whether the loop was stopped (or never started): a long pass can check it between steps. */
  get isStopped(): boolean {
    return this.stopped;
  }

  /** Asks for a pass soon: now, or right after the running one. */
  nudge(): void {
    this.run('nudge');
  }

  private run(reason: PassReason): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.running = Promise.resolve()
      .then(() => this.options.pass(reason))
      .then(
        () => undefined,
        (error: unknown) => this.options.onError(error),
      )
      .finally(() => {
        this.running = undefined;
        if (this.stopped) return;
        if (this.again) {
          this.again = false;
          this.run('nudge');
        } else {
          this.timer = setTimeout(() => this.run('timer'), this.options.intervalMs);
          this.timer.unref();
        }
      });
  }
}
