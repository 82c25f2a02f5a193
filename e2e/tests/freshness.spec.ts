import type { Product } from '@shop/contracts';
import { SEEDED_ADMIN, callApi, expect, signInThroughApi, test } from './fixtures';

/**
 * Catalogue reads are served from the products service's memory and revalidated by browsers (issue 16,
 * item 4). An admin's change must still reach a shopper's page within a second: the cache is dropped
 * by the change's own events, not left to expire. This fails if invalidation breaks (a stale answer
 * lives until the cache's 60 s backstop) or if the answer could be reused by the browser without
 * revalidating.
 */

const DEADLINE_MS = 1_000;
const RUN = Date.now().toString(36);

test("an admin's change of name and price is on a shopper's product page within a second", async ({
  page,
  baseURL,
}) => {
  const admin = await signInThroughApi(baseURL!, SEEDED_ADMIN.email, SEEDED_ADMIN.password);
  const [demo] = await callApi<Product[]>(baseURL!, 'GET', '/api/products');
  const product = await callApi<Product>(baseURL!, 'POST', '/api/listings/create', admin.token, {
    name: `Fresh Pistol ${RUN}`,
    image: demo!.image.slice(0, 1),
    category: `Freshness ${RUN}`,
    brand: 'Acme Arms',
    price: 100,
    countInStock: 5,
    description: 'A pistol whose name and price change while a shopper looks at it.',
  });

  await page.goto(`/product/${product.slug}`);
  await expect(page.getByRole('heading', { level: 1, name: product.name })).toBeVisible();
  // What the page asks the API for, asked from the page, so the browser's own HTTP cache takes part.
  const readInPage = () =>
    page.evaluate(async (path) => {
      const response = await fetch(path);
      return (await response.json()) as { name: string; price: number };
    }, `/api/products/slug/${product.slug}`);
  expect(await readInPage()).toMatchObject({ name: product.name, price: 100 });

  const { _id: id, rating: _rating, numReviews: _reviews, ...input } = product;
  const renamed = `Fresh Pistol ${RUN} Mk II`;
  await callApi<Product>(baseURL!, 'POST', `/api/products/update/${id}`, admin.token, {
    ...input,
    name: renamed,
    price: 149.5,
  });
  const changedAt = Date.now();
  await expect
    .poll(readInPage, { timeout: 5_000, intervals: [25] })
    .toMatchObject({ name: renamed, price: 149.5 });
  expect(Date.now() - changedAt).toBeLessThanOrEqual(DEADLINE_MS);

  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: renamed })).toBeVisible();
  await expect(page.getByText('149.50').first()).toBeVisible();
});
