import { expect } from '@playwright/test';
import { api } from './orders';

/** Switches a fault flag as the admin (docs/observability.md, "Fault flags"); the data service answers 200 when it took the variant. */
export async function switchFlag(baseURL: string, adminToken: string, key: string, variant: string) {
  const { status } = await api(`${baseURL}/api/data/flags/${key}`, {
    method: 'PUT',
    token: adminToken,
    body: { variant },
  });
  expect(status, `${key} switched to ${variant}`).toBe(200);
}
