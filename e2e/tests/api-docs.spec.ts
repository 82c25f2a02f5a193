import { expect, test } from './fixtures';

// The API reference (docs/decisions/0015-api-reference.md): one page built from the six
// services' OpenAPI documents, served by the data service behind the gateway's /api/docs route.

const SECTIONS = ['products', 'orders', 'users', 'wallet', 'data', 'media'].map((name) => `${name} service`);

test('/api/docs renders every service’s operations in Chromium, under its own strict policy', async ({
  page,
  baseURL,
  requests,
  consoleProblems,
  cspViolations,
}) => {
  const response = await page.goto('/api/docs');
  expect(response?.status()).toBe(200);
  const headers = response!.headers();
  expect(headers['content-type']).toBe('text/html; charset=utf-8');
  const policy = headers['content-security-policy']!;
  expect(policy).toMatch(/^default-src 'none'; script-src 'sha256-[^;]+; style-src 'unsafe-inline';/);
  expect(policy.split('; ').find((directive) => directive.startsWith('script-src '))).not.toMatch(
    /unsafe|\*|http/,
  );
  expect(policy).toContain("frame-ancestors 'none'");

  // Redoc rendered the joined document: a group per service in the menu, each service's operations.
  const menu = page.getByRole('list').first();
  for (const section of SECTIONS) await expect(menu.getByText(section, { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'get /api/products', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'post /api/media', exact: true })).toBeVisible();

  // The checkout call, with its Idempotency-Key and every answer the orders service documents.
  await menu.getByRole('link', { name: 'orders', exact: true }).click();
  const placeOrder = page.getByRole('heading', { name: /Place an order$/ });
  await expect(placeOrder).toBeVisible();
  await expect(page.getByRole('button', { name: 'post /api/orders', exact: true })).toBeVisible();
  await expect(page.getByText('idempotency-key', { exact: true }).first()).toBeVisible();
  for (const status of ['201', '400', '401', '404', '409', '413', '503']) {
    await expect(page.getByRole('tab', { name: status, exact: true }).first()).toBeAttached();
  }

  // Everything the page loaded came from the shop itself, and it printed no error but the favicon's.
  const origin = new URL(baseURL!).origin;
  expect(requests.filter((url) => !url.startsWith(origin) && !url.startsWith('data:'))).toEqual([]);
  expect(consoleProblems.filter((m) => m.type() === 'error' && !/favicon/.test(m.location().url))).toEqual(
    [],
  );
  // Redoc's search tries `Function(...)` to start a worker and falls back when refused: that refusal is
  // the policy working. Any other violation still fails the test (fixtures.ts).
  const evalRefusals = cspViolations.filter((v) => v.directive === 'script-src' && v.blockedURI === 'eval');
  expect(evalRefusals.length).toBeLessThanOrEqual(1);
  cspViolations.splice(0, cspViolations.length, ...cspViolations.filter((v) => !evalRefusals.includes(v)));
});

test('/api/docs answers other methods with the JSON 404 of the data service', async ({ baseURL }) => {
  const refused = await fetch(`${baseURL}/api/docs`, { method: 'POST', body: '{}' });
  expect(refused.status).toBe(404);
  expect(refused.headers.get('content-type')).toContain('application/json');
  expect(await refused.json()).toEqual({ message: expect.any(String) });
});
