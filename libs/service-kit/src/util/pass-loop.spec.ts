import { afterEach, describe, expect, it } from 'vitest';
import { PassLoop, type PassReason } from './pass-loop';

const tick = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));

/** A loop whose passes wait until the test lets them end, recording how they overlapped. */
function recordedLoop(intervalMs = 60_000) {
  const reasons: PassReason[] = [];
  const errors: unknown[] = [];
  let active = 0;
  let most = 0;
  let release: () => void = () => undefined;
  let holding = true;
  let fail: unknown;
  const loop = new PassLoop({
    intervalMs,
    pass: async (reason) => {
      reasons.push(reason);
      active += 1;
      most = Math.max(most, active);
      if (holding) await new Promise<void>((resolve) => (release = resolve));
      active -= 1;
      if (fail !== undefined) throw fail;
    },
    onError: (error) => errors.push(error),
  });
  const recorded = {
    loop,
    reasons,
    errors,
    most: () => most,
    failWith: (error: unknown) => (fail = error),
    /** Ends the running pass (once it has started) and lets the loop take its next step. */
    endPass: async () => {
      await tick();
      release();
      await tick();
    },
    /** Lets every pass end at once, and stops the loop. */
    finish: async () => {
      holding = false;
      release();
      await loop.stop();
    },
  };
  current = recorded;
  return recorded;
}

let current: { finish(): Promise<void> } | undefined;
afterEach(async () => {
  await current?.finish();
  current = undefined;
});

describe('PassLoop', () => {
  it('runs a pass at start, and one more after it for any number of nudges during it', async () => {
    const recorded = recordedLoop();
    recorded.loop.start();
    await tick();
    recorded.loop.nudge();
    recorded.loop.nudge();
    recorded.loop.nudge();
    await recorded.endPass();
    await recorded.endPass();
    await tick(20);
    expect(recorded.reasons).toEqual(['nudge', 'nudge']);
    expect(recorded.most()).toBe(1);
  });

  it('runs a timer pass an interval after the last pass when nobody nudges', async () => {
    const recorded = recordedLoop(30);
    recorded.loop.start();
    await recorded.endPass();
    expect(recorded.reasons).toEqual(['nudge']);
    await tick(80);
    expect(recorded.reasons).toEqual(['nudge', 'timer']);
  });

  it('hands a failed pass to onError and goes on', async () => {
    const recorded = recordedLoop(30);
    recorded.failWith(new Error('database away'));
    recorded.loop.start();
    await recorded.endPass();
    expect(recorded.errors).toEqual([new Error('database away')]);
    await tick(80);
    expect(recorded.reasons).toEqual(['nudge', 'timer']);
  });

  it('does nothing before start or after stop, and stop waits for the running pass', async () => {
    const recorded = recordedLoop(10);
    recorded.loop.nudge();
    await tick(30);
    expect(recorded.reasons).toEqual([]);

    recorded.loop.start();
    await tick();
    let stopped = false;
    const stopping = recorded.loop.stop().then(() => (stopped = true));
    await tick(20);
    expect(stopped).toBe(false);
    await recorded.endPass();
    await stopping;
    expect(recorded.loop.isStopped).toBe(true);
    recorded.loop.nudge();
    await tick(30);
    expect(recorded.reasons).toEqual(['nudge']);
  });
});
