import { backendTestConfig } from '@shop/testing/vitest-preset';
import { defineConfig } from 'vitest/config';

export default defineConfig(backendTestConfig({ nest: true }));
