import type { Page } from '@playwright/test';
import type { Product, Wallet } from '@shop/contracts';
import {
  SEEDED_ADMIN,
  callApi,
  expect,
  expectAxeClean,
  productCards,
  signUpThroughApi,
  startSignedIn,
  test,
  uniqueEmail,
} from './fixtures';
import {
  BLUE_PNG,
  expectAccessibleAtBothWidths,
  freshTag,
  pageOf,
  placeOrder,
  png,
  productsMatching,
  uploadThroughApi,
} from './support/admin';

// The admin screens (docs/product/screens.md, "Admin screens"; docs/decisions/0009-admin-screens.md), as
// an admin uses them: listings, the lists, users, wallets and the site's settings. A shopper's side is done
// through the API so these tests do not depend on the checkout screens. The day-to-day operations on
// orders and stock (export, refunds, low stock, the audit trail) are in admin-operations.spec.ts.

/**
 * Sends the listing form (create or update), checked at both widths first: the shop says it is done, goes
 * home, and lists the product at its price.
 */
async function sendListingForm(page: Page, button: string, done: string, name: string, price: string) {
  await expectAccessibleAtBothWidths(page);
  await page.getByRole('button', { name: button }).click();
  await expect(page.getByText(done)).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(productCards(page).filter({ hasText: name })).toContainText(price);
}

test('a listing with two images goes on sale, is edited, ordered, paid and delivered', async ({
  admin,
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
  await sendListingForm(page, 'Create Listing', 'Product created to successfully!', name, '$25.00');
  const [product] = await productsMatching(baseURL!, tag);
  expect(product!.image).toHaveLength(2);

  // Edit it from All Products.
  await page.goto(`/all-products?q=${tag}`);
  await page.getByRole('link', { name: `Edit ${name}` }).click();
  await expect(page).toHaveURL(new RegExp(`/update/${product!._id}$`));
  await expect(page.getByLabel('Name')).toHaveValue(name);
  await page.getByLabel('Price').fill('30');
  await sendListingForm(page, 'Update Product', 'Product updated successfully!', name, '$30.00');

  // A shopper orders it and pays with a receipt (through the API).
  const shopper = await signUpThroughApi(baseURL!, { name: 'Pat Shopper' });
  const order = await placeOrder(baseURL!, shopper, product!._id);
  const receipt = await uploadThroughApi(baseURL!, shopper.token, 'receipt.png');
  await callApi(baseURL!, 'PUT', `/api/orders/${order._id}/pay`, shopper.token, { receiptUrl: receipt });

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
  admin,
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
      await callApi<Product>(baseURL!, 'POST', '/api/listings/create', admin.token, {
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
  admin,
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
  admin,
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
    await callApi(baseURL!, 'DELETE', `/api/orders/delete/${order._id}`, admin.token);

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
    await callApi(baseURL!, 'PUT', '/api/wallet/update-wallet', admin.token, {
      coin: 'apple Pay',
      walletId: applePay.paymentDetails || 'pay@admin-test.example',
      qrCode: applePay.qrCode,
    });
    await callApi(baseURL!, 'PUT', '/api/data/update-data', admin.token, {
      id: settings._id,
      siteName: settings.siteName,
      currency: settings.currency,
      logo: settings.logo,
    });
  }
});
