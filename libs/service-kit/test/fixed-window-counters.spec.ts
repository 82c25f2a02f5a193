import { mongoUrlFor, uniqueDbName } from '@shop/testing';
import mongoose, { type Connection } from 'mongoose';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  FixedWindowCounters,
  type FixedWindowRecord,
  fixedWindowAt,
  fixedWindowSchema,
} from '../src/throttling/fixed-window-counters';

let db: Connection;
let counters: FixedWindowCounters;
let windows: mongoose.Model<FixedWindowRecord>;

beforeAll(async () => {
  db = await mongoose.createConnection(mongoUrlFor(inject('mongoUrl'), uniqueDbName('windows'))).asPromise();
  windows = db.model<FixedWindowRecord>('Window', fixedWindowSchema('windows'));
  await windows.init();
  counters = new FixedWindowCounters(windows, pino({ level: 'silent' }));
});

afterAll(async () => {
  await db?.close();
});

describe('fixed windows', () => {
  it('places a moment in its window and says how long is left, at least a second', () => {
    expect(fixedWindowAt(125_500, 60_000)).toEqual({
      start: 120_000,
      expiresAt: new Date(180_000),
      retryAfterSeconds: 55,
    });
    expect(fixedWindowAt(179_999, 60_000).retryAfterSeconds).toBe(1);
  });

  it('lets exactly the limit through when many take the same new window at once', async () => {
    const expiresAt = new Date(Date.now() + 60_000);
    const taken = await Promise.all(Array.from({ length: 30 }, () => counters.take('race', expiresAt, 7)));
    expect(taken.filter(Boolean)).toHaveLength(7);
    expect((await windows.findById('race').lean())?.count).toBe(7);
    expect(await counters.take('race', expiresAt, 7)).toBe(false);
    expect(await counters.take('race', expiresAt, 8)).toBe(true);
  });

  it('gives back one at a time, never below zero, and a given-back unit can be taken again', async () => {
    const expiresAt = new Date(Date.now() + 60_000);
    expect(await counters.take('give-back', expiresAt, 1)).toBe(true);
    expect(await counters.take('give-back', expiresAt, 1)).toBe(false);
    await counters.decrement('give-back');
    await counters.decrement('give-back');
    expect((await windows.findById('give-back').lean())?.count).toBe(0);
    expect(await counters.take('give-back', expiresAt, 1)).toBe(true);
  });

  it('sweeps only the windows that have ended', async () => {
    const now = new Date();
    await counters.take('ended', new Date(now.getTime() - 1), 5);
    await counters.take('open', new Date(now.getTime() + 60_000), 5);
    // Exactly one: the windows of the tests before this one end a minute from their start.
    expect(await counters.sweep(now)).toBe(1);
    expect(await windows.findById('ended').lean()).toBeNull();
    expect(await windows.findById('open').lean()).not.toBeNull();
  });

  it('sweeps on its own once started, by the clock it is given', async () => {
    const clock = { now: new Date('2030-01-01T00:00:00Z') };
    await counters.take('timed', new Date('2030-01-01T00:00:30Z'), 5);
    counters.startSweeping(() => clock.now, 20);
    try {
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await windows.findById('timed').lean()).not.toBeNull();
      clock.now = new Date('2030-01-01T00:01:00Z');
      await expect.poll(() => windows.findById('timed').lean(), { timeout: 2_000 }).toBeNull();
    } finally {
      counters.stopSweeping();
    }
  });
});
