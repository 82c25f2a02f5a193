import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// Workspace libraries are read from their TypeScript source (the `source` export condition), as every
// other project's tests do, so a test never runs against a stale dist/ of @shop/contracts.
// The tests run the contract tools themselves (oasdiff, Redocly, the AsyncAPI parser): a busy runner
// has taken 40 s for three gate runs. The time limit is a hang guard, not a speed bound.
export default defineConfig({
  test: { testTimeout: 180_000 },
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source', ...defaultServerConditions] } },
});
