import swc from 'unplugin-swc';
import { defaultServerConditions } from 'vite';
import type { ViteUserConfig } from 'vitest/config';
// Brings the typing of `inject('mongoUrl')` into every project whose Vitest config uses this preset.
export type {} from './provided-context.mjs';

/**
 * The Vitest settings back-end projects share: workspace libraries read from their TypeScript
 * source, one real database and NATS for the whole run (see global-setup), and, for NestJS,
 * SWC so decorator metadata survives.
 */
export function backendTestConfig(options: { nest?: boolean } = {}): ViteUserConfig {
  return {
    // SWC keeps decorator metadata, which NestJS dependency injection needs.
    plugins: options.nest ? [swc.vite({ module: { type: 'es6' } })] : [],
    resolve: { conditions: ['source'] },
    // Tests run in Vite's server environment, which does not read the top-level resolve.conditions.
    ssr: { resolve: { conditions: ['source', ...defaultServerConditions] } },
    test: {
      globalSetup: ['@shop/testing/global-setup'],
      include: ['src/**/*.spec.ts', 'test/**/*.spec.ts'],
      testTimeout: 30_000,
      // A hang guard, not a speed bound: a file's beforeAll may start its own services, each given up to
      // 120 s to be ready (startServiceProcess) on a machine whose other core a burner takes.
      hookTimeout: 180_000,
    },
  };
}

/**
 * The Vitest settings screen tests share: a DOM (jsdom), workspace libraries read from their
 * TypeScript source as webpack reads them, React's automatic JSX runtime, jest-dom matchers.
 */
export function frontendTestConfig(): ViteUserConfig {
  return {
    resolve: { conditions: ['source', 'module', 'browser', 'development|production'] },
    // Server code tested in Node (`@vitest-environment node`, e.g. a render service talking to NATS,
    // whose client needs Node's own Uint8Array) reads the libraries from source too.
    ssr: { resolve: { conditions: ['source', ...defaultServerConditions] } },
    // Vite 8 transforms with oxc; components rely on the automatic JSX runtime (no React import).
    oxc: { jsx: { runtime: 'automatic' } },
    test: {
      environment: 'jsdom',
      include: ['src/**/*.spec.{ts,tsx}'],
      setupFiles: ['@shop/testing/dom-setup'],
      // A hang guard, not a speed bound: a screen test that types a form with user-event takes ~1 s on a
      // quiet machine and went past Vitest's default 5 s with one core taken by a burner.
      testTimeout: 30_000,
    },
  };
}
