import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Read workspace libraries from their TypeScript source, as webpack does.
  resolve: { conditions: ['source', 'module', 'browser', 'development|production'] },
  // Vite 8 transforms with oxc; components rely on the automatic JSX runtime (no React import).
  oxc: { jsx: { runtime: 'automatic' } },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.spec.{ts,tsx}'],
    setupFiles: ['./vitest.setup.ts'],
    passWithNoTests: true,
  },
});
