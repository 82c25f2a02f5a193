// What the admin specs share: real images, an address, API calls as a user, and the checks every admin
// screen passes (admin.spec.ts, admin-operations.spec.ts).
import type { Browser, Page } from '@playwright/test';
import type { Order, Product, UserInfo } from '@shop/contracts';
import { callApi, expect, expectAxeClean, startSignedIn, uploadImageThroughApi } from '../fixtures';

/** 8×8 PNGs, red and blue: the media service judges an image by its bytes, so these are real ones. */
export const RED_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR4nGM4ISeHFTEMLQkAkL9BAbKfPiIAAAAASUVORK5CYII=',
  'base64',
);
export const BLUE_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR4nGOQszmBFTEMLQkAKexIgYSG3JkAAAAASUVORK5CYII=',
  'base64',
);
export const png = (name: string, buffer = RED_PNG) => ({ name, mimeType: 'image/png', buffer });

export const SHIPPING = {
  fullName: 'Pat Shopper',
  address: '1 Main Street',
  city: 'Sacramento',
  country: 'United States',
  phoneNumber: '555 0100',
};

/** A word no other test's data contains, so searches find only what this test made. */
export const freshTag = () => `adm${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** Uploads an image as this user, as the shopper's receipt screen would. */
export const uploadThroughApi = (baseURL: string, token: string, name: string, bytes = RED_PNG) =>
  uploadImageThroughApi(baseURL, token, name, bytes);

export function placeOrder(baseURL: string, shopper: UserInfo, productId: string, paymentMethod = 'cashapp') {
  return callApi<Order>(baseURL, 'POST', '/api/orders', shopper.token, {
    orderItems: [{ _id: productId, quantity: 1 }],
    shippingAddress: SHIPPING,
    paymentMethod,
  });
}

export async function productsMatching(baseURL: string, text: string): Promise<Product[]> {
  const response = await fetch(`${baseURL}/api/products?query=${encodeURIComponent(text)}`);
  return (await response.json()) as Product[];
}

/** Axe at 1280 px and at 320 px, where nothing may make the page scroll sideways. */
export async function expectAccessibleAtBothWidths(page: Page): Promise<void> {
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
export async function pageOf(browser: Browser, baseURL: string, user: UserInfo): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await startSignedIn(page, user);
  return page;
}

/** Opens an admin screen as an admin finds it, signed in: the profile's ADMIN FEATURES menu, then its item. */
export async function openFromAdminMenu(page: Page, admin: UserInfo, item: string): Promise<void> {
  await startSignedIn(page, admin);
  await page.goto('/profile');
  await page.getByRole('button', { name: 'ADMIN FEATURES' }).click();
  await page.getByRole('menuitem', { name: item }).click();
  await expect(page.getByRole('heading', { name: item })).toBeVisible();
}
