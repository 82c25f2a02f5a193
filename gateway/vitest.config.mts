import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['source'] },
  test: {
    include: ['src/**/*.spec.ts', 'test/**/*.spec.ts'],
    environment: 'node',
    // Integration specs start real servers on free ports; keep them off each other's toes on 2 cores.
    fileParallelism: false,
    testTimeout: 20_000,
  },
});
