import { fileURLToPath } from 'node:url';
import { backendTestConfig } from '@shop/testing/vitest-preset';
import { defineConfig } from 'vitest/config';

/**
 * `npm run openapi -w @shop/<name>`: writes the service's `openapi.json`. It runs the service's own
 * `src/openapi.spec.ts`, where the module is declared, with `checkOpenApiDocument` resolved to the
 * writer (write-as-check.ts); `npm test` runs the same spec as the check, which never writes.
 * No database or broker: the document comes from Nest's preview mode.
 */
const preset = backendTestConfig({ nest: true });

export default defineConfig({
  ...preset,
  // The service's folder (npm run -w runs there), not this one.
  root: process.cwd(),
  resolve: {
    ...preset.resolve,
    alias: [
      {
        find: /^@shop\/service-kit\/openapi-check$/,
        replacement: fileURLToPath(new URL('./write-as-check.ts', import.meta.url)),
      },
    ],
  },
  test: { ...preset.test, globalSetup: [], include: ['src/openapi.spec.ts'] },
});
