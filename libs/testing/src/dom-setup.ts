// Set-up of every screen test: jest-dom matchers, and a clean document after each test.
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// How long findBy… and waitFor wait for what they expect: a hang guard, not a speed bound. The default
// (1 s) is a time a busy two-core runner breaks; what a test asserts is that it shows, not how fast.
configure({ asyncUtilTimeout: 5_000 });

afterEach(cleanup);
