import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['source'] },
  test: {
    include: ['src/**/*.spec.ts', 'test/**/*.spec.ts'],
    environment: 'node',
    // Integration specs start real servers on free ports; keep them off each other's toes on 2 cores.
    fileParallelism: false,
    // A hang guard, not a speed bound: the command-line tests start node with tsx twice in one test,
    // which took more than 20 s with one core taken by a CPU burner.
    testTimeout: 60_000,
  },
});
