import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

// Workspace libraries are read from their TypeScript source (the `source` export condition).
const conditions = ['source', 'module', 'node', 'development|production'];

export default defineConfig({
  // SWC keeps decorator metadata, which NestJS dependency injection needs.
  plugins: [swc.vite({ module: { type: 'es6' } })],
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['source'] } },
  test: {
    globalSetup: ['@shop/testing/global-setup'],
    include: ['src/**/*.spec.ts', 'test/**/*.spec.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
