import { defineConfig } from 'vitest/config';
import { backendTestConfig } from '@shop/testing/vitest-preset';

export default defineConfig(backendTestConfig());
