import { readFile } from 'node:fs/promises';
import type { Order, Product, UserInfo } from '@shop/contracts';
import {
  SEEDED_ADMIN,
  callApi,
  expect,
  expectAxeClean,
  signUpThroughApi,
  startSignedIn,
  test,
  uniqueEmail,
} from './fixtures';
import {
  SHIPPING,
  expectAccessibleAtBothWidths,
  freshTag,
  openFromAdminMenu,
  pageOf,
  placeOrder,
  uploadThroughApi,
} from './support/admin';
import { createListing } from './support/listings';

// An admin running the shop day to day (docs/product/screens.md, "Admin screens"): exporting the orders a
// search finds, refunding, finding low stock, and reading the audit trail of what admins did. A shopper's
// side is done through the API so these tests do not depend on the checkout screens.

/**
 * What an operation is tried on: a product the admin listed through the API, with a picture of its own,
 * named `<word> <tag>`, branded `word` and made by the test of that word; and a shopper of the same name.
 */
async function listedWithShopper(
  baseURL: string,
  admin: UserInfo,
  tag: string,
  word: string,
  fields: { price: number; countInStock: number },
): Promise<{ product: Product; shopper: UserInfo }> {
  const image = await uploadThroughApi(baseURL, admin.token, `${word.toLowerCase()}.png`);
  const product = await createListing(baseURL, admin.token, {
    name: `${word} ${tag}`,
    image: [image],
    brand: word,
    ...fields,
    description: `Made by the admin ${word.toLowerCase()} test`,
  });
  const shopper = await signUpThroughApi(baseURL, { name: `${word} ${tag}`, email: uniqueEmail(tag) });
  return { product, shopper };
}

test('an admin exports the orders a search finds as a CSV file a spreadsheet opens safely', async ({
  admin,
  page,
  baseURL,
}) => {
  const tag = freshTag();
  const { product, shopper } = await listedWithShopper(baseURL!, admin, tag, 'Export', {
    price: 12.5,
    countInStock: 20,
  });
  const placed: Order[] = [];
  for (const fullName of [`${tag} Plain`, `=HYPERLINK("http://evil.example","${tag}")`]) {
    placed.push(
      await callApi<Order>(baseURL!, 'POST', '/api/orders', shopper.token, {
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
  admin,
  page,
  browser,
  baseURL,
}) => {
  const tag = freshTag();
  const { product, shopper } = await listedWithShopper(baseURL!, admin, tag, 'Refund', {
    price: 40,
    countInStock: 5,
  });
  const order = await placeOrder(baseURL!, shopper, product._id);
  await callApi(baseURL!, 'PUT', `/api/orders/markpaid/${order._id}`, admin.token);
  const stock = async () =>
    (await callApi<Product>(baseURL!, 'GET', `/api/products/${product._id}`, admin.token)).countInStock;
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
  admin,
  page,
  baseURL,
}) => {
  const tag = freshTag();
  const image = await uploadThroughApi(baseURL!, admin.token, 'low-stock.png');
  const [watched, plenty] = await Promise.all(
    [4, 40].map((countInStock) =>
      createListing(baseURL!, admin.token, {
        name: `Low ${tag} ${countInStock}`,
        image: [image],
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
        (await callApi<Product>(baseURL!, 'GET', `/api/products/${watched!._id}`, admin.token)).lowStock,
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
  admin,
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
  const product = await callApi<Product>(baseURL!, 'POST', '/api/listings/create', admin.token, listing);
  await callApi(baseURL!, 'POST', `/api/products/update/${product._id}`, admin.token, {
    ...listing,
    slug: product.slug,
    countInStock: 9,
  });
  const shopper = await signUpThroughApi(baseURL!, { name: `Audit ${tag}`, email: uniqueEmail(tag) });
  const order = await placeOrder(baseURL!, shopper, product._id);
  await callApi(baseURL!, 'PUT', `/api/orders/markpaid/${order._id}`, admin.token);
  await callApi(baseURL!, 'POST', `/api/orders/${order._id}/refunds`, admin.token, {
    amountCents: 500,
    reference: `${tag}-r`,
    reason: 'Late delivery',
  });
  await callApi(baseURL!, 'PUT', `/api/orders/${order._id}/cancel`, admin.token);
  await callApi(baseURL!, 'DELETE', `/api/orders/delete/${order._id}`, admin.token);
  // The trail is written from the services' events: it follows each action a moment later.
  const recorded = async (targetId: string) =>
    (await callApi<unknown[]>(baseURL!, 'GET', `/api/data/audit?targetId=${targetId}`, admin.token)).length;
  await expect.poll(() => recorded(product._id)).toBe(2);
  await expect.poll(() => recorded(order._id)).toBe(4);

  await openFromAdminMenu(page, admin, 'Audit Trail');
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
