import { defineConfig } from 'vitest/config';

// No shared test servers here: this library is what starts them, and each test starts its own.
export default defineConfig({
  test: { include: ['src/**/*.spec.ts', 'test/**/*.spec.ts'], testTimeout: 30_000, hookTimeout: 60_000 },
});
