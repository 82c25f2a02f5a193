import type { Page } from '@playwright/test';
import type { Product, ProductFacets } from '@shop/contracts';
import {
  SEEDED_ADMIN,
  expect,
  expectAxeClean,
  expectTakenOver,
  productCards,
  signInThroughApi,
  test,
} from './fixtures';
import { createListing, type NewListing } from './support/listings';

/**
 * The catalogue screens of mf-catalog through the gateway. Every product these tests buy or filter is
 * created here, in a category of this run's own, so the demo catalogue other files rely on stays as it is.
 */

const RUN = Date.now().toString(36);
const CATEGORY = `E2E Range ${RUN}`;
const MAIN_BRAND = 'Acme Arms';
const OTHER_BRAND = 'Borealis';

interface Catalogue {
  adminToken: string;
  /** Media URLs of the demo pictures, reused by the products made here. */
  pictures: string[];
}

let shop: Catalogue;
let created = 0;

async function api<T>(baseURL: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${baseURL}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${shop.adminToken}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await response.json()) as T & { message?: string };
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${answer.message}`);
  return answer;
}

/** Creates a pistol of this run's category as the admin would (fields not given get plain values). */
function createProduct(baseURL: string, fields: Partial<NewListing> = {}): Promise<Product> {
  created += 1;
  return createListing(baseURL, shop.adminToken, {
    name: `E2E Pistol ${RUN} ${created}`,
    image: shop.pictures.slice(0, 1),
    category: CATEGORY,
    brand: MAIN_BRAND,
    description: 'A pistol made by the catalogue browser tests.',
    ...fields,
  });
}

function setStock(baseURL: string, product: Product, countInStock: number): Promise<Product> {
  const { _id: id, rating: _rating, numReviews: _reviews, ...input } = product;
  return api<Product>(baseURL, 'POST', `/api/products/update/${id}`, { ...input, countInStock });
}

test.beforeAll(async ({ stack }) => {
  const admin = await signInThroughApi(stack.url, SEEDED_ADMIN.email, SEEDED_ADMIN.password);
  const demo = (await (await fetch(`${stack.url}/api/products`)).json()) as Product[];
  shop = { adminToken: admin.token, pictures: [...new Set(demo.flatMap((p) => p.image))] };
  expect(shop.pictures.length).toBeGreaterThanOrEqual(3);

  // 14 Acme pistols from $100 to $230, two dear Acme ones, three of another brand: 19 in the category.
  for (let i = 0; i < 14; i += 1) await createProduct(stack.url, { price: 100 + i * 10 });
  for (const price of [1500, 1750]) await createProduct(stack.url, { price });
  for (const price of [120, 150, 180]) await createProduct(stack.url, { brand: OTHER_BRAND, price });
});

/** Fails when anything is wider than the window (at 320 px nothing may overflow). */
async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

/** axe and overflow at a phone's and a desktop's width. */
async function expectAccessibleAtBothWidths(page: Page): Promise<void> {
  for (const width of [320, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await expectAxeClean(page);
    await expectNoHorizontalOverflow(page);
  }
}

test('home → category → brand and price → sort → page 2, and a reload keeps the view', async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/');
  await expect(productCards(page).first()).toBeVisible();

  await page.getByRole('button', { name: 'All' }).click();
  await page.getByRole('dialog').getByRole('link', { name: CATEGORY }).click();
  await expect(page).toHaveURL(`/category/${encodeURIComponent(CATEGORY)}`);
  await expect(page.getByRole('heading', { level: 1, name: CATEGORY })).toBeVisible();
  await expect(page.getByText('19 products')).toBeVisible();
  await expect(productCards(page)).toHaveCount(12);

  const brands = page.getByRole('region', { name: 'Brand' });
  await expect(brands.getByRole('link', { name: `${OTHER_BRAND} (3)` })).toBeVisible();
  await brands.getByRole('link', { name: `${MAIN_BRAND} (16)` }).click();
  await expect(page).toHaveURL(/\?brand=Acme\+Arms$/);
  await expect(page.getByText('16 products')).toBeVisible();

  await page.getByLabel('Min price ($)').fill('100');
  await page.getByLabel('Max price ($)').fill('250');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/\?brand=Acme\+Arms&minPrice=100&maxPrice=250$/);
  await expect(page.getByText('14 products')).toBeVisible();

  await page.getByLabel('Sort by').selectOption({ label: 'Price: high to low' });
  await expect(page).toHaveURL(/&sort=price-desc$/);
  await expect(productCards(page).first()).toContainText('$230.00');

  await page.getByRole('navigation', { name: 'Pagination' }).getByRole('link', { name: 'Page 2' }).click();
  await expect(page).toHaveURL(/&sort=price-desc&page=2$/);
  const expectPageTwo = async () => {
    await expect(productCards(page)).toHaveCount(2);
    await expect(productCards(page).nth(0)).toContainText('$110.00');
    await expect(productCards(page).nth(1)).toContainText('$100.00');
    await expect(page.getByRole('link', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByLabel('Sort by')).toHaveValue('price-desc');
    await expect(page.getByLabel('Min price ($)')).toHaveValue('100');
    await expect(page.getByLabel('Max price ($)')).toHaveValue('250');
    await expect(brands.getByRole('link', { name: `${MAIN_BRAND} (14)` })).toHaveAttribute(
      'aria-current',
      'true',
    );
  };
  await expectPageTwo();
  await expectAccessibleAtBothWidths(page);

  await page.reload();
  await expectPageTwo();

  await page.goBack();
  await expect(page).toHaveURL(/&sort=price-desc$/);
  await expect(productCards(page)).toHaveCount(12);

  // The facets call answers what the filters on screen show.
  const facets = (await (
    await fetch(`${baseURL}/api/products/facets?category=${encodeURIComponent(CATEGORY)}&maxPrice=250`)
  ).json()) as ProductFacets;
  expect(facets.brands).toEqual([
    { value: MAIN_BRAND, count: 14 },
    { value: OTHER_BRAND, count: 3 },
  ]);
});

test('the search box finds products, and an empty result says so', async ({ page }) => {
  await page.goto('/');
  const search = page.getByRole('search').getByRole('searchbox');
  await search.fill(`E2E Pistol ${RUN}`);
  await search.press('Enter');

  // Before the page's code has taken it over, the rendered form submits itself (`?query=E2E+Pistol+…`);
  // after, the code navigates (`%20`): the same search either way.
  const searched = () => {
    const url = new URL(page.url());
    return `${url.pathname}?query=${url.searchParams.get('query')}`;
  };
  await expect.poll(searched).toBe(`/search?query=E2E Pistol ${RUN}`);
  await expect(
    page.getByRole('heading', { level: 1, name: `Search results for “E2E Pistol ${RUN}”` }),
  ).toBeVisible();
  await expect(page.getByText('19 products')).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Category' }).getByRole('link', { name: `${CATEGORY} (19)` }),
  ).toBeVisible();
  await expectAccessibleAtBothWidths(page);

  await search.fill(`nothing like this ${RUN}`);
  await search.press('Enter');
  await expect(page.getByText('No products found')).toBeVisible();
});

test('the product page slides by arrow, bullet and drag, and adds to the cart', async ({ page, baseURL }) => {
  const product = await createProduct(baseURL!, {
    image: shop.pictures.slice(0, 3),
    countInStock: 4,
    price: 777,
  });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/product/${product.slug}`);

  await expect(page.getByRole('heading', { level: 1, name: product.name })).toBeVisible();
  await expect(page).toHaveTitle(`Product Page ${product.name}`);
  const card = page.getByRole('complementary', { name: 'Purchase' });
  await expect(card).toContainText('$777.00');
  await expect(card).toContainText('In Stock');

  const slider = page.getByRole('region', { name: `Pictures of ${product.name}` });
  const bullets = slider.getByRole('button', { name: /^Go to picture \d$/ });
  await expect(bullets).toHaveCount(3);
  const showing = async (picture: number) => {
    await expect(slider.getByRole('button', { name: `Go to picture ${picture}` })).toHaveAttribute(
      'aria-current',
      'true',
    );
    await expect(slider.locator('.swiper-slide-active')).toHaveAttribute(
      'aria-label',
      `Picture ${picture} of 3`,
    );
    // The bullet changes as the slide starts moving; a drag begun mid-transition may be taken as a tap.
    await expect
      .poll(() =>
        slider
          .locator('.swiper')
          .evaluate((element) => (element as { swiper?: { animating: boolean } }).swiper?.animating),
      )
      .toBe(false);
  };
  await showing(1);

  await slider.getByRole('button', { name: 'Next picture' }).click();
  await showing(2);
  await slider.getByRole('button', { name: 'Go to picture 3' }).click();
  await showing(3);

  // Dragging the picture to the right brings the one before it.
  const box = (await slider.locator('.swiper').boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.4);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.9, box.y + box.height * 0.4, { steps: 12 });
  await page.mouse.up();
  await showing(2);

  // Dragging the scrollbar's handle to its start brings the first.
  const handle = (await slider.locator('.swiper-scrollbar-drag').boundingBox())!;
  await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x - 20, handle.y + handle.height / 2, { steps: 12 });
  await page.mouse.up();
  await showing(1);

  // The keyboard does the same: Enter on an arrow, then the arrow keys.
  await slider.getByRole('button', { name: 'Next picture' }).press('Enter');
  await showing(2);
  await page.keyboard.press('ArrowRight');
  await showing(3);

  await expectAccessibleAtBothWidths(page);

  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page).toHaveURL('/cart');
  await expect(page.getByText('Product added to the cart')).toBeVisible();
  await expect(page.getByTestId('cart-badge')).toHaveText('1');
});

test('a product whose stock is all in the cart is refused, and the page stays', async ({ page, baseURL }) => {
  const product = await createProduct(baseURL!, { countInStock: 1 });
  await page.goto(`/product/${product.slug}`);
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page).toHaveURL('/cart');
  await expect(page.getByTestId('cart-badge')).toHaveText('1');

  await page.goto(`/product/${product.slug}`);
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page.getByText('Sorry. Product is out of stock')).toBeVisible();
  await expect(page).toHaveURL(`/product/${product.slug}`);
  await expect(page.getByTestId('cart-badge')).toHaveText('1');
});

test('add to cart reads the stock at that moment, not when the page was opened', async ({
  page,
  baseURL,
}) => {
  const product = await createProduct(baseURL!, { countInStock: 3 });
  await page.goto(`/search?query=${encodeURIComponent(product.name)}`);
  const cardOf = productCards(page).filter({ hasText: product.name });
  await expect(cardOf.getByRole('button', { name: 'Add to Cart' })).toBeEnabled();

  // Someone else buys the last ones while this page is open.
  await setStock(baseURL!, product, 0);
  await cardOf.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page.getByText('Sorry. Product is out of stock')).toBeVisible();
  await expect(page.getByTestId('cart-badge')).toHaveCount(0);
});

test("an unknown or malformed slug shows the red 'Product Not Found'", async ({ page }) => {
  for (const slug of [`no-such-product-${RUN}`, 'Not%20A%20Slug!']) {
    await page.goto(`/product/${slug}`);
    await expect(page.getByRole('alert')).toHaveText('Product Not Found');
    // The danger variant of the shared alert: dark red text on pink.
    await expect(page.getByRole('alert')).toHaveCSS('color', 'rgb(132, 32, 41)');
  }
  await expectAxeClean(page);
});

test('the about page scrolls to the section of the hash, on load and on a footer link', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/about#faq');
  await expect(page.locator('#faq')).toBeInViewport();
  await expect(page.locator('#about')).not.toBeInViewport();
  // The footer link is the router's once the page's code runs; a press while hydration was replacing
  // the link was lost (seen on a slow CI runner), so the test waits for the take-over first.
  await expectTakenOver(page);

  await page.getByRole('contentinfo').getByRole('link', { name: 'Review' }).click();
  await expect(page).toHaveURL('/about#testimonials');
  await expect(page.locator('#testimonials')).toBeInViewport();
  await expect(
    page.getByRole('region', { name: 'What Our Customers Say' }).getByRole('listitem'),
  ).toHaveCount(3);

  const questions = page.getByRole('region', { name: 'Frequently Asked Questions' }).getByRole('button');
  await expect(questions).toHaveCount(7);
  await questions.nth(1).click();
  await questions.nth(4).click();
  await expect(questions.nth(4)).toHaveAttribute('aria-expanded', 'true');
  await expect(questions.nth(1)).toHaveAttribute('aria-expanded', 'false');

  await expectAccessibleAtBothWidths(page);
  await page.getByRole('link', { name: 'Shop Now' }).click();
  await expect(page).toHaveURL('/');
});

test('under reduced motion the hero clip stays still and the jump is instant', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto('/about#services');
  await expect(page.locator('#services')).toBeInViewport();
  await expect(page.getByRole('button', { name: 'Play background video' })).toBeVisible();
  expect(await page.locator('video').evaluate((video: HTMLVideoElement) => video.paused)).toBe(true);
});

test('the terms show the liability cap and the children statement', async ({ page }) => {
  await page.goto('/legal');
  await expect(page.getByRole('heading', { level: 1, name: 'Terms and Conditions' })).toBeVisible();
  await expect(page.getByText(/in no case more than \$1,000/)).toBeVisible();
  await expect(
    page.getByText(/do not knowingly collect personal data from children under thirteen/),
  ).toBeVisible();
  // The contact address is the configured one (shell's site.json), the same as the footer's.
  const { contact } = (await (await page.request.get('/site.json')).json()) as { contact: { email: string } };
  await expect(page.getByRole('main').getByRole('link', { name: contact.email })).toHaveAttribute(
    'href',
    `mailto:${contact.email}`,
  );
  await expectAccessibleAtBothWidths(page);
});

test('the home page stays accessible with its grid at both widths', async ({ page }) => {
  await page.goto('/');
  await expect(productCards(page).first()).toBeVisible();
  await expectAccessibleAtBothWidths(page);
});

test("the home page loads its own catalog chunks only, no other screen's code", async ({
  page,
  baseURL,
  requests,
}) => {
  interface Manifest {
    exposes: { name: string; assets: { js: { sync: string[] }; css: { sync: string[] } } }[];
  }
  // The catalog's manifest is at the version remotes.json names (docs/decisions/0011-versioned-front-ends.md).
  const remotes = (await (await fetch(`${baseURL}/remotes.json`)).json()) as {
    remotes: { catalog: { url: string } };
  };
  const manifest = (await (await fetch(new URL(remotes.remotes.catalog.url, baseURL))).json()) as Manifest;
  const assetsOf = (name: string) => {
    const exposed = manifest.exposes.find((entry) => entry.name === name)!;
    return [...exposed.assets.js.sync, ...exposed.assets.css.sync];
  };
  const home = new Set(assetsOf('HomePage'));
  const otherScreens = new Set(
    ['ProductPage', 'SearchPage', 'CategoryPage', 'AboutPage', 'LegalPage']
      .flatMap(assetsOf)
      .filter((file) => !home.has(file)),
  );
  expect(otherScreens.size).toBeGreaterThan(0);

  await page.goto('/');
  await expect(productCards(page).first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  const catalogFiles = requests
    .filter((url) => url.includes('/remotes/catalog/'))
    .map((url) => new URL(url).pathname.split('/').pop()!);
  expect(catalogFiles.filter((file) => home.has(file)).length).toBeGreaterThan(0);
  expect(catalogFiles.filter((file) => otherScreens.has(file))).toEqual([]);
});
