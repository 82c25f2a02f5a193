import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// Workspace libraries are read from their TypeScript source (the `source` export condition), as every
// other project's tests do, so a test never runs against a stale dist/ of @shop/contracts.
export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source', ...defaultServerConditions] } },
});
