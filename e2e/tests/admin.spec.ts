import { readFile } from 'node:fs/promises';
import type { Browser, Page } from '@playwright/test';
import type { Order, Product, UserInfo, Wallet } from '@shop/contracts';
import {
  SEEDED_ADMIN,
  callApi,
  expect,
  expectAxeClean,
  productCards,
  signInThroughApi,
  signUpThroughApi,
  startSignedIn,
  test,
  uniqueEmail,
  uploadImageThroughApi,
} from './fixtures';

// The admin screens (docs/product/screens.md, "Admin screens"; docs/decisions/0009-admin-screens.md), as
// an admin uses them, with a shopper's side done through the API so
// these tests do not depend on the checkout screens.

/** 8×8 PNGs, red and blue: the media service judges an image by its bytes, so these are real ones. */
const RED_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR4nGM4ISeHFTEMLQkAkL9BAbKfPiIAAAAASUVORK5CYII=',
  'base64',
);
const BLUE_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR4nGOQszmBFTEMLQkAKexIgYSG3JkAAAAASUVORK5CYII=',
  'base64',
);
const png = (name: string, buffer = RED_PNG) => ({ name, mimeType: 'image/png', buffer });

const SHIPPING = {
  fullName: 'Pat Shopper',
  address: '1 Main Street',
  city: 'Sacramento',
  country: 'United States',
  phoneNumber: '555 0100',
};

/** A word no other test's data contains, so searches find only what this test made. */
const freshTag = () => `adm${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

const api = <T>(baseURL: string, method: string, path: string, token: string, body?: unknown) =>
  callApi<T>(baseURL, method, path, token, body);

/** Uploads an image as this user, as the shopper's receipt screen would. */
const uploadThroughApi = (baseURL: string, token: string, name: string, bytes = RED_PNG) =>
  uploadImageThroughApi(baseURL, token, name, bytes);

function placeOrder(baseURL: string, shopper: UserInfo, productId: string, paymentMethod = 'cashapp') {
  return api<Order>(baseURL, 'POST', '/api/orders', shopper.token, {
    orderItems: [{ _id: productId, quantity: 1 }],
    shippingAddress: SHIPPING,
    paymentMethod,
  });
}

async function productsMatching(baseURL: string, text: string): Promise<Product[]> {
  const response = await fetch(`${baseURL}/api/products?query=${encodeURIComponent(text)}`);
  return (await response.json()) as Product[];
}

/** Axe at 1280 px and at 320 px, where nothing may make the page scroll sideways. */
async function expectAccessibleAtBothWidths(page: Page): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 900 });
  await expectAxeClean(page);
  await page.setViewportSize({ width: 320, height: 800 });
  // The elements that stick out on the right, named, when the page scrolls sideways.
  const overflowing = await page.evaluate(() =>
    document.documentElement.scrollWidth <= window.innerWidth
      ? []
      : Array.from(document.body.querySelectorAll('*'))
          .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
          .map((element) => `${element.tagName.toLowerCase()}.${element.className}`),
  );
  expect(overflowing).toEqual([]);
  await expectAxeClean(page);
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** A page in a browser context of its own (its own storage), signed in as this user. */
async function pageOf(browser: Browser, baseURL: string, user: UserInfo): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await startSignedIn(page, user);
  return page;
}

let admin: UserInfo;

test.beforeAll(async ({ stack }) => {
  admin = await signInThroughApi(stack.url, SEEDED_ADMIN.email, SEEDED_ADMIN.password);
});

test('a listing with two images goes on sale, is edited, ordered, paid and delivered', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const tag = freshTag();
  const name = `Holster ${tag}`;
  await startSignedIn(page, admin);

  await page.goto('/create-listing');
  await expect(page.getByRole('heading', { level: 1, name: 'Create Listing' })).toBeVisible();
  await page.getByLabel('Images').setInputFiles([png('front.png'), png('side.png', BLUE_PNG)]);
  const tiles = page.getByRole('list', { name: 'Listing images' });
  await expect(tiles.getByRole('img', { name: 'Image 1: front.png' })).toHaveAttribute(
    'src',
    /^\/api\/media\//,
  );
  await expect(tiles.getByRole('img', { name: 'Image 2: side.png' })).toHaveAttribute(
    'src',
    /^\/api\/media\//,
  );
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Description').fill('A kydex holster made for the admin screens test');
  await page.getByLabel('Brand').fill('Safariland');
  await page.getByLabel('Category').fill('Accessories');
  await page.getByLabel('Price').fill('25');
  await page.getByLabel('Count In Stock').fill('20');
  await expectAccessibleAtBothWidths(page);
  await page.getByRole('button', { name: 'Create Listing' }).click();

  await expect(page.getByText('Product created to successfully!')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(productCards(page).filter({ hasText: name })).toContainText('$25.00');
  const [product] = await productsMatching(baseURL!, tag);
  expect(product!.image).toHaveLength(2);

  // Edit it from All Products.
  await page.goto(`/all-products?q=${tag}`);
  await page.getByRole('link', { name: `Edit ${name}` }).click();
  await expect(page).toHaveURL(new RegExp(`/update/${product!._id}$`));
  await expect(page.getByLabel('Name')).toHaveValue(name);
  await page.getByLabel('Price').fill('30');
  await expectAccessibleAtBothWidths(page);
  await page.getByRole('button', { name: 'Update Product' }).click();
  await expect(page.getByText('Product updated successfully!')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(productCards(page).filter({ hasText: name })).toContainText('$30.00');

  // A shopper orders it and pays with a receipt (through the API).
  const shopper = await signUpThroughApi(baseURL!, { name: 'Pat Shopper' });
  const order = await placeOrder(baseURL!, shopper, product!._id);
  const receipt = await uploadThroughApi(baseURL!, shopper.token, 'receipt.png');
  await api(baseURL!, 'PUT', `/api/orders/${order._id}/pay`, shopper.token, { receiptUrl: receipt });

  // The admin sees the receipt, marks the order paid, then delivered.
  await page.goto(`/all-orders?q=${order._id}`);
  const row = page.getByRole('row').filter({ hasText: `Order ${order._id}` });
  await expect(row).toContainText('Pending');
  await row.getByRole('button', { name: `View the payment receipt of order ${order._id}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Payment Receipt' });
  await expect(dialog.getByRole('img', { name: 'Payment receipt' })).toHaveAttribute('src', receipt);
  await expectAxeClean(page);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(row.getByRole('button', { name: /^Delivered/ })).toHaveCount(0);
  await row.getByRole('button', { name: `Mark Paid order ${order._id}` }).click();
  await expect(page.getByText('Order marked as paid successfully!')).toBeVisible();
  await expect(row.getByText('Paid', { exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: /^Mark Paid/ })).toHaveCount(0);
  await row.getByRole('button', { name: `Delivered order ${order._id}` }).click();
  await expect(page.getByText('Order marked as delivered!')).toBeVisible();
  await expect(row.getByRole('button', { name: /^Delivered/ })).toHaveCount(0);
  await expectAccessibleAtBothWidths(page);

  // The shopper sees it paid and delivered.
  const shopperPage = await pageOf(browser, baseURL!, shopper);
  await shopperPage.goto(`/order/${order._id}`);
  await expect(shopperPage.getByText(/Delivered at/)).toBeVisible();
  await expect(shopperPage.getByText(/Paid at/)).toBeVisible();
  await shopperPage.context().close();
});

test('every admin list searches and pages on the server; deletes ask first and refresh in place', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const tag = freshTag();
  await startSignedIn(page, admin);

  // Eleven of each, one more than a page.
  const image = await uploadThroughApi(baseURL!, admin.token, 'pager.png');
  const products: Product[] = [];
  for (let n = 1; n <= 11; n += 1) {
    products.push(
      await api<Product>(baseURL!, 'POST', '/api/listings/create', admin.token, {
        name: `Pager ${tag} ${n}`,
        image: [image],
        category: 'Accessories',
        brand: 'Pager',
        price: 10 + n,
        countInStock: 20,
        description: 'Made by the admin paging test',
      }),
    );
  }
  const shopper = await signUpThroughApi(baseURL!, { name: `Pager ${tag}`, email: uniqueEmail(tag) });
  for (let n = 2; n <= 11; n += 1)
    await signUpThroughApi(baseURL!, { name: `Pager ${tag} ${n}`, email: uniqueEmail(tag) });
  for (let n = 0; n < 11; n += 1) await placeOrder(baseURL!, shopper, products[0]!._id);

  for (const [path, subject] of [
    ['/all-products', 'products'],
    ['/all-orders', 'orders'],
    ['/all-users', 'users'],
  ] as const) {
    await page.goto(path);
    await page.getByRole('searchbox', { name: `Search ${subject}` }).fill(tag);
    await page.getByRole('searchbox', { name: `Search ${subject}` }).press('Enter');
    await expect(page.getByText(`Page 1 of 2 (11 ${subject})`)).toBeVisible();
    await expect(page.getByRole('table').getByRole('row')).toHaveCount(11);
    await expectAccessibleAtBothWidths(page);
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByText(`Page 2 of 2 (11 ${subject})`)).toBeVisible();
    await expect(page.getByRole('table').getByRole('row')).toHaveCount(2);
    await expect(page).toHaveURL(new RegExp(`${path}\\?q=${tag}&page=2$`));
  }

  // A delete asks first; after it the list refreshes where it is (no reload of the page).
  await page.goto(`/all-orders?q=${tag}`);
  await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
  const first = page.getByRole('button', { name: /^Delete order / }).first();
  await first.click();
  const confirm = page.getByRole('dialog', { name: 'Delete order' });
  await expectAxeClean(page);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText('Page 1 of 2 (11 orders)')).toBeVisible();
  await first.click();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Order Deleted successfully!')).toBeVisible();
  await expect(page.getByText('Page 1 of 1 (10 orders)')).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);

  await page.goto(`/all-products?q=${tag}`);
  await page.getByRole('button', { name: `Delete Pager ${tag} 11` }).click();
  await page.getByRole('dialog', { name: 'Delete product' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Product Deleted successfully!')).toBeVisible();
  await expect(page.getByText('Page 1 of 1 (10 products)')).toBeVisible();
});

test('a user made admin sees the admin menu after their next sign-in; nobody deletes themselves', async ({
  page,
  browser,
  baseURL,
}) => {
  const email = uniqueEmail('promoted');
  const password = 'correct-horse-battery';
  const shopper = await signUpThroughApi(baseURL!, { name: 'Promoted Pat', email, password });
  const doomed = await signUpThroughApi(baseURL!, { name: 'Doomed Dan' });
  await startSignedIn(page, admin);

  await page.goto(`/all-users?q=${encodeURIComponent(email)}`);
  await expect(page.getByText("Make Admin takes effect at the user's next sign-in.")).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toContainText('No');
  await row.getByRole('button', { name: `Make Admin ${email}` }).click();
  await expect(page.getByText('User made an admin successfully!')).toBeVisible();
  await expect(row.getByRole('cell', { name: 'Yes' })).toBeVisible();
  await expect(row.getByRole('button', { name: /^Make Admin/ })).toHaveCount(0);

  // Not for yourself: no Delete offered, and the server refuses it anyway.
  await page.goto(`/all-users?q=${encodeURIComponent(SEEDED_ADMIN.email)}`);
  const own = page.getByRole('row').filter({ hasText: SEEDED_ADMIN.email });
  await expect(own).toBeVisible();
  await expect(own.getByRole('button', { name: /^Delete/ })).toHaveCount(0);
  const selfDelete = await fetch(`${baseURL}/api/users/delete/${admin._id}`, {
    method: 'DELETE',
    headers: { Authorization: `Bearer ${admin.token}` },
  });
  expect(selfDelete.status).toBe(400);

  await page.goto(`/all-users?q=${encodeURIComponent(doomed.email)}`);
  await page.getByRole('button', { name: `Delete ${doomed.email}` }).click();
  await page.getByRole('dialog', { name: 'Delete user' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('User deleted successfully!')).toBeVisible();
  await expect(page.getByText(`No users match “${doomed.email}”.`)).toBeVisible();

  // Their old session is a shopper's: the admin remote is never fetched for it.
  const before = await pageOf(browser, baseURL!, shopper);
  const fetched: string[] = [];
  before.on('request', (request) => fetched.push(request.url()));
  await before.goto('/profile');
  await expect(before.getByLabel('Name')).toHaveValue('Promoted Pat');
  await expect(before.getByRole('button', { name: 'ADMIN FEATURES' })).toHaveCount(0);
  await before.goto('/all-users');
  await expect(before).not.toHaveURL(/\/all-users/);
  await before.waitForLoadState('networkidle');
  expect(fetched.filter((url) => url.includes('/remotes/admin'))).toEqual([]);
  await before.context().close();

  // After signing in again they are an admin.
  const fresh = await browser.newContext({ baseURL: baseURL! });
  const after = await fresh.newPage();
  await after.goto('/signin?redirect=/profile');
  await after.getByLabel('Email').fill(email);
  await after.getByLabel('Password').fill(password);
  await after.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(after).toHaveURL(/\/profile$/);
  await after.getByRole('button', { name: 'ADMIN FEATURES' }).click();
  await after.getByRole('menuitem', { name: 'View All Users' }).click();
  await expect(after.getByRole('heading', { level: 1, name: 'All Users' })).toBeVisible();
  await fresh.close();
});

test('a new wallet QR code reaches the shopper’s order page, and the site name the top bar at once', async ({
  page,
  browser,
  baseURL,
}) => {
  const wallets = (await (await fetch(`${baseURL}/api/wallet/all-wallets`)).json()) as Wallet[];
  const applePay = wallets.find((wallet) => wallet.paymentMethod === 'apple Pay')!;
  const settings = (
    (await (await fetch(`${baseURL}/api/data/all-data`)).json()) as {
      _id: string;
      siteName: string;
      currency: string;
      logo: string;
    }[]
  )[0]!;
  await startSignedIn(page, admin);

  try {
    await page.goto('/wallet-update');
    const form = page.getByRole('form', { name: 'apple Pay' });
    await form.getByLabel('QR Code').setInputFiles(png('apple-pay-qr.png', BLUE_PNG));
    await expect(page.getByText('Image uploaded successfully')).toBeVisible();
    const qr = form.getByRole('img', { name: 'apple Pay QR code' });
    await expect(qr).toHaveAttribute('src', /^\/api\/media\/.*apple-pay-qr/);
    const qrUrl = (await qr.getAttribute('src'))!;
    await form.getByLabel('Payment Details').fill('pay@admin-test.example');
    await expectAccessibleAtBothWidths(page);
    await form.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Wallet updated successfully')).toBeVisible();

    const shopper = await signUpThroughApi(baseURL!);
    const [anyProduct] = await productsMatching(baseURL!, 'Glock 19 Gen5');
    const order = await placeOrder(baseURL!, shopper, anyProduct!._id, 'apple Pay');
    const shopperPage = await pageOf(browser, baseURL!, shopper);
    await shopperPage.goto(`/order/${order._id}`);
    await expect(shopperPage.getByRole('img', { name: 'Payment QR code' })).toHaveAttribute('src', qrUrl);
    await shopperPage.context().close();
    await api(baseURL!, 'DELETE', `/api/orders/delete/${order._id}`, admin.token);

    await page.goto('/website-update');
    const siteName = `Admin Test ${freshTag()}`;
    await page.getByLabel('Site Name').fill(siteName);
    await expectAccessibleAtBothWidths(page);
    await page.getByRole('button', { name: 'Update' }).click();
    await expect(page.getByText('Website data updated successfully')).toBeVisible();
    await expect(page.getByRole('banner').getByText(siteName)).toBeVisible();
  } finally {
    // Other files' tests read the seeded wallets and site name. The wallet API cannot clear payment
    // details (walletId is required), so a wallet seeded without them keeps this test's, without its QR.
    await api(baseURL!, 'PUT', '/api/wallet/update-wallet', admin.token, {
      coin: 'apple Pay',
      walletId: applePay.paymentDetails || 'pay@admin-test.example',
      qrCode: applePay.qrCode,
    });
    await api(baseURL!, 'PUT', '/api/data/update-data', admin.token, {
      id: settings._id,
      siteName: settings.siteName,
      currency: settings.currency,
      logo: settings.logo,
    });
  }
});

test('an admin exports the orders a search finds as a CSV file a spreadsheet opens safely', async ({
  page,
  baseURL,
}) => {
  const tag = freshTag();
  const image = await uploadThroughApi(baseURL!, admin.token, 'export.png');
  const product = await api<Product>(baseURL!, 'POST', '/api/listings/create', admin.token, {
    name: `Export ${tag}`,
    image: [image],
    category: 'Accessories',
    brand: 'Export',
    price: 12.5,
    countInStock: 20,
    description: 'Made by the admin export test',
  });
  const shopper = await signUpThroughApi(baseURL!, { name: `Export ${tag}`, email: uniqueEmail(tag) });
  const placed: Order[] = [];
  for (const fullName of [`${tag} Plain`, `=HYPERLINK("http://evil.example","${tag}")`]) {
    placed.push(
      await api<Order>(baseURL!, 'POST', '/api/orders', shopper.token, {
        orderItems: [{ _id: product._id, quantity: 2 }],
        shippingAddress: { ...SHIPPING, fullName, address: `1 Main Street, Flat "${tag}"` },
        paymentMethod: 'cashapp',
      }),
    );
  }
  await startSignedIn(page, admin);
  await page.goto(`/all-orders?q=${tag}`);
  await expect(page.getByText('Page 1 of 1 (2 orders)')).toBeVisible();

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^orders-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = (await readFile((await download.path())!)).toString('utf8');
  const [header, ...rows] = csv
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');
  expect(header!.split(',').slice(0, 4)).toEqual(['Order', 'Placed at', 'Customer', 'Full name']);
  // Newest first: the second order, its formula made inert, its quotes doubled inside a quoted field.
  expect(rows).toHaveLength(2);
  expect(rows[0]!.startsWith(`${placed[1]!._id},`)).toBe(true);
  expect(rows[0]).toContain(
    `,"'=HYPERLINK(""http://evil.example"",""${tag}"")","1 Main Street, Flat ""${tag}""",`,
  );
  expect(rows[1]!.startsWith(`${placed[0]!._id},`)).toBe(true);
  expect(rows[1]).toContain(`,${tag} Plain,"1 Main Street, Flat ""${tag}""",`);
  expect(rows[1]).toContain(`,2 x Export ${tag},2,25.00,`);
});

test('an admin refunds a paid order in part, then the rest: its stock comes back, and the shopper sees both', async ({
  page,
  browser,
  baseURL,
}) => {
  const tag = freshTag();
  const image = await uploadThroughApi(baseURL!, admin.token, 'refund.png');
  const product = await api<Product>(baseURL!, 'POST', '/api/listings/create', admin.token, {
    name: `Refund ${tag}`,
    image: [image],
    category: 'Accessories',
    brand: 'Refund',
    price: 40,
    countInStock: 5,
    description: 'Made by the admin refund test',
  });
  const shopper = await signUpThroughApi(baseURL!, { name: `Refund ${tag}`, email: uniqueEmail(tag) });
  const order = await placeOrder(baseURL!, shopper, product._id);
  await api(baseURL!, 'PUT', `/api/orders/markpaid/${order._id}`, admin.token);
  const stock = async () =>
    (await api<Product>(baseURL!, 'GET', `/api/products/${product._id}`, admin.token)).countInStock;
  expect(await stock()).toBe(4);

  await startSignedIn(page, admin);
  await page.goto(`/all-orders?q=${order._id}`);
  const row = page.getByRole('row').filter({ hasText: `Order ${order._id}` });
  const refund = async (amount: string, reference: string, reason: string) => {
    await row.getByRole('button', { name: `Refund order ${order._id}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Refund order' });
    await dialog.getByLabel('Amount').fill(amount);
    await dialog.getByLabel('Payment reference').fill(reference);
    await dialog.getByLabel('Reason').fill(reason);
    await expectAxeClean(page);
    await dialog.getByRole('button', { name: 'Record Refund' }).click();
    await expect(dialog).toBeHidden();
  };

  const total = order.totalPrice.toFixed(2);
  const rest = (order.totalPrice - 10).toFixed(2);
  // $10 of the total (tax and shipping included) back: the goods still go out.
  await refund('10', `${tag}-1`, 'Scratched slide');
  await expect(page.getByText('Refund recorded')).toBeVisible();
  await expect(row).toContainText('Refunded $10.00');
  expect(await stock()).toBe(4);

  // The rest: the order is cancelled before delivery, and its unit is back on the shelf.
  await row.getByRole('button', { name: `Refund order ${order._id}` }).click();
  await expect(page.getByRole('dialog', { name: 'Refund order' }).getByLabel('Amount')).toHaveValue(rest);
  await page.keyboard.press('Escape');
  await refund(rest, `${tag}-2`, 'Returned unopened');
  await expect(row).toContainText('Cancelled');
  await expect(row).toContainText(/Refunded(?! \$)/);
  await expect(row.getByRole('button', { name: `Refund order ${order._id}` })).toHaveCount(0);
  expect(await stock()).toBe(5);

  const shopperPage = await pageOf(browser, baseURL!, shopper);
  await shopperPage.goto(`/order/${order._id}`);
  await expect(shopperPage.getByText('Refunded:').locator('..')).toContainText(
    `Refunded: $${total} of $${total}`,
  );
  await expect(shopperPage.getByRole('list', { name: 'Refunds' }).getByRole('listitem')).toHaveText([
    new RegExp(`^\\$10\\.00 on .+, reference ${tag}-1$`),
    new RegExp(`^\\$${rest.replace('.', '\\.')} on .+, reference ${tag}-2$`),
  ]);
  await expect(shopperPage.getByText(/Cancelled at/)).toBeVisible();
  await expectAxeClean(shopperPage);
  await shopperPage.context().close();
});

test('orders bring a product to its low-stock threshold: the admin finds it under Low stock only, marked', async ({
  page,
  baseURL,
}) => {
  const tag = freshTag();
  const image = await uploadThroughApi(baseURL!, admin.token, 'low-stock.png');
  const [watched, plenty] = await Promise.all(
    [4, 40].map((countInStock) =>
      api<Product>(baseURL!, 'POST', '/api/listings/create', admin.token, {
        name: `Low ${tag} ${countInStock}`,
        image: [image],
        category: 'Accessories',
        brand: 'Low',
        price: 15,
        countInStock,
        lowStockThreshold: 2,
        description: 'Made by the admin low-stock test',
      }),
    ),
  );
  const shopper = await signUpThroughApi(baseURL!, { name: `Low ${tag}`, email: uniqueEmail(tag) });
  await startSignedIn(page, admin);
  await page.goto(`/all-products?q=${tag}`);
  await expect(page.getByRole('table').getByRole('row')).toHaveCount(3);
  await expect(page.getByText('Low stock', { exact: true })).toHaveCount(0);

  // Two orders of one: 4 → 2, the threshold.
  for (let n = 0; n < 2; n += 1) await placeOrder(baseURL!, shopper, watched!._id);
  // The flag follows the stock a moment after the order is answered (products checks after its write).
  await expect
    .poll(
      async () =>
        (await api<Product>(baseURL!, 'GET', `/api/products/${watched!._id}`, admin.token)).lowStock,
    )
    .toBe(true);
  // The box shows the URL's filter, which the router sets a moment after the click: click, then wait.
  const lowStockOnly = page.getByRole('checkbox', { name: 'Low stock only' });
  await lowStockOnly.click();
  await expect(lowStockOnly).toBeChecked();
  await expect(page).toHaveURL(new RegExp(`q=${tag}.*lowStock=true|lowStock=true.*q=${tag}`));
  const rows = page.getByRole('table').getByRole('row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText(watched!.name);
  await expect(rows.nth(1)).toContainText('2Low stock');
  await expectAxeClean(page);
  await lowStockOnly.click();
  await expect(lowStockOnly).not.toBeChecked();
  await expect(page.getByRole('row').filter({ hasText: plenty!.name })).not.toContainText('Low stock');
});

test('the audit trail lists what an admin did to a product and an order, with the values before and after', async ({
  page,
  baseURL,
}) => {
  const tag = freshTag();
  const image = await uploadThroughApi(baseURL!, admin.token, 'audit.png');
  const listing = {
    name: `Audit ${tag}`,
    image: [image],
    category: 'Accessories',
    brand: 'Audit',
    price: 30,
    countInStock: 6,
    description: 'Made by the admin audit test',
  };
  const product = await api<Product>(baseURL!, 'POST', '/api/listings/create', admin.token, listing);
  await api(baseURL!, 'POST', `/api/products/update/${product._id}`, admin.token, {
    ...listing,
    slug: product.slug,
    countInStock: 9,
  });
  const shopper = await signUpThroughApi(baseURL!, { name: `Audit ${tag}`, email: uniqueEmail(tag) });
  const order = await placeOrder(baseURL!, shopper, product._id);
  await api(baseURL!, 'PUT', `/api/orders/markpaid/${order._id}`, admin.token);
  await api(baseURL!, 'POST', `/api/orders/${order._id}/refunds`, admin.token, {
    amountCents: 500,
    reference: `${tag}-r`,
    reason: 'Late delivery',
  });
  await api(baseURL!, 'PUT', `/api/orders/${order._id}/cancel`, admin.token);
  await api(baseURL!, 'DELETE', `/api/orders/delete/${order._id}`, admin.token);
  // The trail is written from the services' events: it follows each action a moment later.
  const recorded = async (targetId: string) =>
    (await api<unknown[]>(baseURL!, 'GET', `/api/data/audit?targetId=${targetId}`, admin.token)).length;
  await expect.poll(() => recorded(product._id)).toBe(2);
  await expect.poll(() => recorded(order._id)).toBe(4);

  await startSignedIn(page, admin);
  await page.goto('/profile');
  await page.getByRole('button', { name: 'ADMIN FEATURES' }).click();
  await page.getByRole('menuitem', { name: 'Audit Trail' }).click();
  await expect(page.getByRole('heading', { name: 'Audit Trail' })).toBeVisible();
  const search = page.getByRole('searchbox', { name: 'Search entries' });
  await search.fill(product._id);
  await page.keyboard.press('Enter');
  const rows = page.getByRole('table').getByRole('row');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText(SEEDED_ADMIN.email);
  await expect(rows.nth(1)).toContainText('Stock changed');
  await expect(rows.nth(1)).toContainText('countInStock: 6 → 9');
  await expect(rows.nth(2)).toContainText('Product created');
  await expect(rows.nth(2)).toContainText(`name: Audit ${tag}`);

  await search.fill(order._id);
  await page.keyboard.press('Enter');
  await expect(rows).toHaveCount(5);
  await expect(rows.nth(1)).toContainText('Order deleted');
  await expect(rows.nth(2)).toContainText('Order cancelled');
  await expect(rows.nth(2)).toContainText('isCancelled: false → true');
  await expect(rows.nth(3)).toContainText('Order refunded');
  await expect(rows.nth(3)).toContainText('refundedCents: 0 → 500');
  await expect(rows.nth(4)).toContainText('Order marked paid');
  await expect(rows.nth(4)).toContainText('status: Not paid → Paid');
  await page.getByRole('combobox', { name: 'Action' }).selectOption({ label: 'Order refunded' });
  await expect(rows).toHaveCount(2);
  await expect(page).toHaveURL(/action=order\.refunded/);
  await expectAccessibleAtBothWidths(page);
});
