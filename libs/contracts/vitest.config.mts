import { defineConfig } from 'vitest/config';

// Pure functions only: no database, no broker, so no global setup.
export default defineConfig({ test: { include: ['src/**/*.spec.ts'] } });
