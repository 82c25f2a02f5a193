import type { Product } from '@shop/contracts';
import { expect, productCards, test } from './fixtures';

async function catalogue(baseURL: string): Promise<Product[]> {
  const response = await fetch(`${baseURL}/api/products`);
  expect(response.status).toBe(200);
  return (await response.json()) as Product[];
}

test('the home page shows the seeded catalogue, composed from the catalog remote', async ({
  page,
  baseURL,
  requests,
}) => {
  const products = await catalogue(baseURL!);
  expect(products.length).toBeGreaterThan(5);

  await page.goto('/');
  const cards = productCards(page);
  await expect(cards).toHaveCount(products.length);

  const glock = products.find((p) => p.slug === 'glock-19-gen5')!;
  const card = cards.filter({ hasText: glock.name });
  await expect(card.getByRole('link', { name: glock.name })).toHaveAttribute(
    'href',
    `/product/${glock.slug}`,
  );
  await expect(card).toContainText('$599.99');
  const words = glock.description.split(/\s+/).slice(0, 10).join(' ');
  await expect(card).toContainText(`${words} .....`);
  await expect(card.getByRole('button', { name: 'Add to Cart' })).toBeEnabled();
  await expect(card.locator('img').first()).toHaveAttribute('src', glock.image[0]!);

  const soldOut = products.find((p) => p.countInStock === 0)!;
  await expect(
    cards.filter({ hasText: soldOut.name }).getByRole('button', { name: 'Sold Out' }),
  ).toBeDisabled();

  // The grid's code came from the catalog remote, through the gateway.
  expect(requests.some((url) => url.includes('/remotes/catalog/'))).toBe(true);
});

test('prices above a thousand use en-US grouping', async ({ page, baseURL }) => {
  const products = await catalogue(baseURL!);
  const dear = products.find((p) => p.price >= 1000)!;
  await page.goto('/');
  await expect(productCards(page).filter({ hasText: dear.name })).toContainText(
    `$${dear.price.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`,
  );
});

test("a shopper's browser never asks for the admin remote", async ({ page, requests }) => {
  await page.goto('/');
  await expect(productCards(page).first()).toBeVisible();
  await page.goto('/cart');
  await page.waitForLoadState('networkidle');
  expect(requests.filter((url) => url.includes('/remotes/admin'))).toEqual([]);
});

test('the console shows no duplicate-instance or shared-version warnings', async ({
  page,
  consoleProblems,
}) => {
  await page.goto('/');
  await expect(productCards(page).first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  const texts = consoleProblems.map((message) => message.text());
  expect(
    texts.filter((text) =>
      /version|singleton|shared|instance|federation|\[ Federation Runtime \]/i.test(text),
    ),
  ).toEqual([]);
  expect(texts).toEqual([]);
});

test('adding to the cart updates the badge in the shell', async ({ page }) => {
  await page.goto('/');
  const card = productCards(page).filter({ hasText: 'Glock 19 Gen5 9mm' });
  await card.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page.getByText('Product added to the cart')).toBeVisible();
  await expect(page.getByTestId('cart-badge')).toHaveText('1');
  await card.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page.getByTestId('cart-badge')).toHaveText('2');
});
