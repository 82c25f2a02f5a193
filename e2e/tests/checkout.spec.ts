import type { Page } from '@playwright/test';
import { type Order, type Product, type UserInfo, type Wallet, priceOrder } from '@shop/contracts';
import { mailCatcherMessages } from '@shop/dev-stack';
import { solidPng } from '@shop/testing';
import {
  callApi,
  expect,
  expectAxeClean,
  productCards,
  signInThroughApi,
  signUpThroughApi,
  startSignedIn,
  test,
  uniqueEmail,
} from './fixtures';
import { createListing, uploadedPicture } from './support/listings';

const PASSWORD = 'correct-horse-battery';

const png = (padding = 0): Buffer => solidPng({ padding });

const api = <T>(baseURL: string, method: string, path: string, token: string, body?: unknown) =>
  callApi<T>(baseURL, method, path, token, body);

/** A product of this test's own, created by the admin with an uploaded image, so its stock is ours to sell out. */
async function createProduct(
  baseURL: string,
  adminToken: string,
  name: string,
  price: number,
  countInStock: number,
) {
  return createListing(baseURL, adminToken, {
    name,
    slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
    image: await uploadedPicture(baseURL, adminToken, 'product.png'),
    price,
    countInStock,
    description: 'Made for the checkout journey test',
  });
}

const money = (amount: number) =>
  `${amount < 0 ? '-' : ''}$${Math.abs(amount).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** How far the page reaches past the window's right edge (0 when it fits). */
const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** The whole page axe-clean at 1280 and 320 px, and none of it wider than 320 px. */
async function expectAccessibleAtBothWidths(page: Page) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await expectAxeClean(page);
  await page.setViewportSize({ width: 320, height: 700 });
  await expectAxeClean(page);
  expect(await overflow(page), `page wider than 320 px on ${page.url()}`).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 900 });
}

const summaryValue = (page: Page, label: string) =>
  page.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]');

test('a shopper goes from the cart to a paid order and finds it in the history', async ({
  admin,
  page,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const run = Date.now().toString(36);
  const rifle = await createProduct(baseURL!, admin.token, `Journey Sling ${run}`, 89.99, 3);
  const scope = await createProduct(baseURL!, admin.token, `Journey Scope ${run}`, 1234.5, 1);
  const email = uniqueEmail('checkout');
  await signUpThroughApi(baseURL!, { name: 'Journey Shopper', email, password: PASSWORD });

  // Two products into the cart from the home grid.
  await page.goto('/');
  const cartLines = () =>
    page.evaluate(() => (JSON.parse(localStorage.getItem('cartItems') ?? '[]') as unknown[]).length);
  for (const [index, product] of [rifle, scope].entries()) {
    await productCards(page)
      .filter({ hasText: product.name })
      .getByRole('button', { name: 'Add to Cart' })
      .click();
    await expect.poll(cartLines).toBe(index + 1);
  }

  // Cart limits: at least 1, at most the stock.
  await page.goto('/cart');
  await expect(page.getByRole('heading', { name: 'Shopping Cart' })).toBeVisible();
  await expect(page.getByRole('button', { name: `One less ${rifle.name}` })).toBeDisabled();
  await expect(page.getByRole('button', { name: `One more ${scope.name}` })).toBeDisabled();
  await page.getByRole('button', { name: `One more ${rifle.name}` }).click();
  await expect(page.getByRole('heading', { name: /^Subtotal \(3 items\)/ })).toBeVisible();
  await expectAccessibleAtBothWidths(page);

  // Checkout goes through sign-in and comes back to the shipping step.
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  await expect(page).toHaveURL(/\/signin\?redirect=(%2F|\/)shipping$/);
  const signIn = page.locator('#main');
  await signIn.getByLabel('Email').fill(email);
  await signIn.getByLabel('Password').fill(PASSWORD);
  await signIn.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/shipping$/);

  // Shipping: the phone number is checked with the server's rule before anything is sent.
  await expect(page.getByRole('heading', { level: 1, name: 'Shipping Address' })).toBeVisible();
  await expect(page.getByLabel('Country').locator('option').first()).toHaveText('Select a country');
  expect(await page.getByLabel('Country').locator('option').count()).toBeGreaterThan(190);
  await page.getByLabel('Full Name').fill('Journey Shopper');
  await page.getByLabel('Address').fill('1 Range Road');
  await page.getByLabel('City').fill('Sacramento');
  await page.getByLabel('Country').selectOption('United States of America');
  await page.getByLabel('Phone Number').fill('call me');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByLabel('Phone Number')).toHaveAttribute('aria-invalid', 'true');
  await expectAccessibleAtBothWidths(page);
  await page.getByLabel('Phone Number').fill('+1 (916) 555-0100');
  await page.getByRole('button', { name: 'Continue' }).click();

  // Payment: bitcoin unless chosen otherwise.
  await expect(page).toHaveURL(/\/payment$/);
  await expect(page.getByRole('radio', { name: 'bitcoin' })).toBeChecked();
  await expectAccessibleAtBothWidths(page);
  await page.getByRole('button', { name: 'Continue' }).click();

  // Preview: the server's pricing with the bitcoin discount.
  await expect(page).toHaveURL(/\/placeorder$/);
  const expected = priceOrder(
    [
      { price: rifle.price, quantity: 2 },
      { price: scope.price, quantity: 1 },
    ],
    'bitcoin',
  );
  expect(expected.discount).toBeGreaterThan(0);
  await expect(summaryValue(page, 'Items')).toHaveText(money(expected.itemsPrice));
  await expect(summaryValue(page, 'Tax')).toHaveText(money(expected.taxPrice));
  await expect(summaryValue(page, 'Bitcoin Discount')).toHaveText(money(-expected.discount));
  await expect(summaryValue(page, 'Order Total')).toHaveText(money(expected.totalPrice));
  await expectAccessibleAtBothWidths(page);

  // A double click places one order.
  await page.getByRole('button', { name: 'Place Order' }).dblclick();
  await expect(page).toHaveURL(/\/order\/[0-9a-f]{24}$/);
  const orderId = page.url().split('/').pop()!;
  const shopper = await signInThroughApi(baseURL!, email, PASSWORD);
  const mine = await api<Order[]>(baseURL!, 'GET', '/api/orders/mine', shopper.token);
  expect(mine.map((order) => order._id)).toEqual([orderId]);
  const stored = mine[0]!;
  expect({
    itemsPrice: stored.itemsPrice,
    taxPrice: stored.taxPrice,
    discount: stored.discount,
    shippingPrice: stored.shippingPrice,
    totalPrice: stored.totalPrice,
  }).toEqual(expected);
  expect(await page.evaluate(() => localStorage.getItem('cartItems'))).toBe('[]');

  // The order page: unpaid, with the wallet of its method.
  await expect(page.getByRole('heading', { level: 1, name: `Order ${orderId}` })).toBeVisible();
  await expect(page.getByText('Not paid', { exact: true })).toBeVisible();
  await expect(summaryValue(page, 'Order Total')).toHaveText(money(stored.totalPrice));
  const wallets = (await (await fetch(`${baseURL}/api/wallet/all-wallets`)).json()) as Wallet[];
  const bitcoin = wallets.find((wallet) => wallet.paymentMethod === 'bitcoin');
  if (bitcoin?.qrCode) {
    await expect(page.getByRole('img', { name: 'Payment QR code' })).toHaveAttribute('src', bitcoin.qrCode);
  } else if (bitcoin?.paymentDetails) {
    await expect(page.locator('svg[aria-label="Payment QR code"]')).toBeVisible();
  } else {
    await expect(page.getByText('Wallet not configured yet')).toBeVisible();
  }
  await expectAccessibleAtBothWidths(page);

  // Upload a receipt on a slow uplink, so its progress can be seen, then mark the order paid.
  await page.getByRole('button', { name: 'Upload Receipt' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload Receipt' });
  await dialog.getByRole('button', { name: 'Upload' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Please select a receipt to upload');
  await dialog.getByLabel(/Payment receipt/).setInputFiles({
    name: 'receipt.png',
    mimeType: 'image/png',
    buffer: png(600 * 1024),
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 20,
    downloadThroughput: -1,
    uploadThroughput: 200 * 1024,
  });
  await dialog.getByRole('button', { name: 'Upload' }).click();
  const progress = dialog.getByRole('progressbar', { name: 'Receipt upload' });
  await expect(progress).toBeVisible();
  await expect
    .poll(async () => Number(await progress.getAttribute('value')), { timeout: 10_000 })
    .toBeGreaterThan(0);
  await expect(dialog.getByText('Receipt uploaded successfully')).toBeVisible({ timeout: 30_000 });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await expectAxeClean(page);
  await dialog.getByRole('button', { name: 'Mark Order As Paid' }).click();
  await expect(page.getByText('Order is paid')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Pending', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'View payment receipt' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Upload Receipt' })).toHaveCount(0);
  await expectAccessibleAtBothWidths(page);

  // The history shows it paid, and leads back to it.
  await page.goto('/orderhistory');
  const row = page.getByRole('row').filter({ hasText: orderId });
  await expect(row).toBeVisible();
  await expect(row).toContainText(money(stored.totalPrice));
  await expect(row.getByRole('cell').nth(3)).not.toHaveText('No');
  await expectAccessibleAtBothWidths(page);
  await row.getByRole('button', { name: /^Details/ }).click();
  await expect(page).toHaveURL(new RegExp(`/order/${orderId}$`));
});

test('an order refused for stock keeps the cart and says why', async ({ admin, page, baseURL }) => {
  const last = await createProduct(baseURL!, admin.token, `Last Piece ${Date.now().toString(36)}`, 45, 1);
  const shopper: UserInfo = await signUpThroughApi(baseURL!);
  const line = {
    _id: last._id,
    name: last.name,
    slug: last.slug,
    image: last.image[0] ?? '',
    price: 45,
    countInStock: 1,
    quantity: 1,
  };
  await startSignedIn(page, shopper);
  await page.addInitScript(
    (stored) => {
      if (window.localStorage.getItem('cartItems') === null) {
        window.localStorage.setItem('cartItems', stored.cartItems);
        window.localStorage.setItem('shippingAddress', stored.shippingAddress);
        window.localStorage.setItem('paymentMethod', '"cashapp"');
      }
    },
    {
      cartItems: JSON.stringify([line]),
      shippingAddress: JSON.stringify({
        fullName: 'Late Buyer',
        address: '2 Range Road',
        city: 'Fresno',
        country: 'United States of America',
        phoneNumber: '559 555 0100',
        price: 0,
      }),
    },
  );
  await page.goto('/placeorder');
  await expect(page.getByRole('heading', { level: 1, name: 'Preview Order' })).toBeVisible();

  // Someone else buys the last piece first.
  const rival = await signUpThroughApi(baseURL!);
  await api<Order>(baseURL!, 'POST', '/api/orders', rival.token, {
    orderItems: [{ _id: last._id, quantity: 1 }],
    shippingAddress: {
      fullName: 'Rival',
      address: '3 Road',
      city: 'Reno',
      country: 'Chile',
      phoneNumber: '12345678',
    },
    paymentMethod: 'cashapp',
  });

  await page.getByRole('button', { name: 'Place Order' }).click();
  await expect(page.getByRole('alert')).toContainText(/out of stock/i);
  await expect(page).toHaveURL(/\/placeorder$/);
  expect(JSON.parse((await page.evaluate(() => localStorage.getItem('cartItems'))) ?? '[]')).toEqual([line]);
  await page.goto('/cart');
  await expect(page.getByRole('link', { name: last.name })).toBeVisible();
});

test("'Order Not Found' for a malformed and for an unknown order id alike", async ({ page, baseURL }) => {
  await startSignedIn(page, await signUpThroughApi(baseURL!));
  for (const id of ['not-an-order', 'ffffffffffffffffffffffff']) {
    await page.goto(`/order/${id}`);
    await expect(page.getByRole('alert')).toHaveText('Order Not Found');
  }
  await expectAccessibleAtBothWidths(page);
});

test('a shopper cancels an unpaid order: its stock goes back, it shows cancelled, and an e-mail says so', async ({
  admin,
  page,
  baseURL,
  stack,
}) => {
  const item = await createProduct(
    baseURL!,
    admin.token,
    `Cancelled Sling ${Date.now().toString(36)}`,
    30,
    3,
  );
  const shopper: UserInfo = await signUpThroughApi(baseURL!);
  const order = await api<Order>(baseURL!, 'POST', '/api/orders', shopper.token, {
    orderItems: [{ _id: item._id, quantity: 2 }],
    shippingAddress: {
      fullName: 'Changed Mind',
      address: '3 Range Road',
      city: 'Fresno',
      country: 'United States of America',
      phoneNumber: '559 555 0101',
    },
    paymentMethod: 'cashapp',
  });
  const stock = async () =>
    (await api<Product>(baseURL!, 'GET', `/api/products/${item._id}`, shopper.token)).countInStock;
  expect(await stock()).toBe(1);

  await startSignedIn(page, shopper);
  await page.goto(`/order/${order._id}`);
  await page.getByRole('button', { name: 'Cancel Order' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel this order?' });
  await expect(dialog).toBeVisible();
  await expectAxeClean(page);
  await dialog.getByRole('button', { name: 'Cancel Order' }).click();
  await expect(page.getByText('Order cancelled')).toBeVisible();
  await expect(page.getByText(/^Cancelled at /)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Upload Receipt' })).toHaveCount(0);
  expect(await stock()).toBe(3);
  await expectAccessibleAtBothWidths(page);

  await page.goto('/orderhistory');
  await expect(page.getByRole('row', { name: new RegExp(order._id) })).toContainText('Cancelled');

  // The users service mails the shopper at each step, through the mail catcher the test stack runs.
  expect(stack.mail, 'the test stack runs the mail catcher').toBeDefined();
  const subjects = async () =>
    (await mailCatcherMessages(stack.mail!.webUrl, { to: shopper.email })).map((mail) => mail.subject);
  await expect.poll(subjects).toEqual([`Order ${order._id} cancelled`, `Order ${order._id} placed`]);
  const [cancelled] = await mailCatcherMessages(stack.mail!.webUrl, { to: shopper.email });
  expect(cancelled!.text).toContain(order._id);
  expect(cancelled!.html).toContain(order._id);
});
