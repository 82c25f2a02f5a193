import { defineConfig } from '@playwright/test';

// Debian's Chromium: Playwright's own browser download cannot work on these machines.
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: './tests',
  // One worker owns one running shop (see fixtures.ts); the tests stop and restart parts of it.
  workers: 1,
  fullyParallel: false,
  forbidOnly: true,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  projects: [
    { name: 'shop', testIgnore: [/fuzz\.spec\.ts$/, /replicas\//] },
    // Two copies of products and orders and a NATS cluster (tests/replicas/replicated-shop.ts): a worker of
    // its own runs one such stack for all the project's files, in name order (kills.spec.ts last).
    { name: 'replicas', testMatch: /replicas\/.*\.spec\.ts$/ },
    // Schemathesis writes random data through every call, admin ones included (tests/fuzz.spec.ts):
    // another project is another worker, so it gets a shop of its own and leaves the others' alone.
    { name: 'fuzz', testMatch: /fuzz\.spec\.ts$/ },
  ],
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'],
    },
    trace: 'off',
    // A click on something that never appears fails in seconds, even in a test given minutes to build.
    actionTimeout: 20_000,
  },
});
