import { afterAll, beforeAll } from 'vitest';

/**
 * What the tests of a file (or of a describe block) share: `start`ed before them (`beforeAll`) and
 * `stop`ped after them (`afterAll`; nothing is stopped when it did not start), as in
 * `const users = startedForTests(startUsers, (harness) => harness.stop())`. The answer stands for
 * the started value, each property read from it (and written to it) when used: use it in tests and
 * hooks, which run after the start, not while the file is being read.
 */
export function startedForTests<T extends object>(
  start: () => Promise<T>,
  stop: (started: T) => Promise<unknown>,
): T {
  let started: T | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(async () => {
    if (started) await stop(started);
  });
  const current = (): T => {
    if (!started) throw new Error('used before its beforeAll started it (or after its start failed)');
    return started;
  };
  return new Proxy({} as T, {
    get: (_target, key) => Reflect.get(current(), key),
    set: (_target, key, value) => Reflect.set(current(), key, value),
    has: (_target, key) => Reflect.has(current(), key),
    ownKeys: () => Reflect.ownKeys(current()),
    getOwnPropertyDescriptor: (_target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(current(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
  });
}
