import { flagSetFile } from '@shop/service-kit/testing';
import { until } from '@shop/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAK_BOUND_BYTES, MemoryLeakFault } from '../src/faults/memory-leak.fault';
import { type UsersHarness, startUsers } from './support/users.harness';

// The users service's fault flag (docs/observability.md, "Fault flags"), read from a flag set file as
// FLAGS_SOURCE=file://… (the cluster syncs the same set from the data service).

const PER_REQUEST = 1_048_576;
const flagFile = flagSetFile({ usersMemoryLeak: { off: 0, '1MB': PER_REQUEST } });

let users: UsersHarness;
let leak: MemoryLeakFault;

beforeAll(async () => {
  users = await startUsers({ env: { FLAGS_SOURCE: flagFile.source } });
  leak = users.app.get(MemoryLeakFault);
});

afterAll(async () => {
  await users?.close();
  flagFile.remove();
});

/** Requests users answers, each followed by the leak's look at the flag. */
async function answerRequests(count: number): Promise<void> {
  // Straight to the service: the gateway routes no probe.
  for (let i = 0; i < count; i += 1)
    expect((await fetch(`${users.serviceUrl}/health/live`)).status).toBe(200);
}

describe('usersMemoryLeak', () => {
  it(
    "keeps the flag's bytes per request answered, up to its bound, and lets them all go once off",
    { timeout: 60_000 },
    async () => {
      await answerRequests(3);
      expect(leak.bytesKept).toBe(0);

      await flagFile.switchTo(users.flags, { usersMemoryLeak: '1MB' });
      const before = leak.bytesKept;
      await answerRequests(5);
      await until(() => leak.bytesKept >= before + 5 * PER_REQUEST, 5_000);
      // Past its bound it keeps no more, however many requests come.
      await answerRequests(LEAK_BOUND_BYTES / PER_REQUEST + 10);
      await until(() => leak.bytesKept >= LEAK_BOUND_BYTES, 5_000);
      await answerRequests(1);
      expect(leak.bytesKept, 'bytes kept past the bound').toBe(LEAK_BOUND_BYTES);

      await flagFile.switchTo(users.flags, {});
      await answerRequests(1);
      await until(() => leak.bytesKept === 0, 5_000);
    },
  );
});
