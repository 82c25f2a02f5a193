import { backendTestConfig } from '@shop/testing/vitest-preset';
import { defineConfig, mergeConfig } from 'vitest/config';

export default mergeConfig(
  defineConfig(backendTestConfig({ nest: true })),
  defineConfig({
    // Every suite starts a media service on the run's one NATS, and the command subjects
    // (media.store-seed-image) are fixed by contract: suites running side by side
    // would answer each other's commands from the wrong database. One file at a time.
    test: { fileParallelism: false },
  }),
);
