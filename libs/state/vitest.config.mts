import { frontendTestConfig } from '@shop/testing/vitest-preset';
import { defineConfig } from 'vitest/config';

export default defineConfig(frontendTestConfig());
