import { expect, expectTakenOver, productCards, test, whilePartDown } from './fixtures';

test('with the catalog remote down the shell still renders its layout and a friendly fallback', async ({
  page,
  stack,
}) => {
  await whilePartDown(stack, 'mf-catalog', async () => {
    await page.goto('/');
    await expect(page.getByRole('banner')).toBeVisible();
    await expect(page.getByRole('alert')).toContainText(/unavailable|could not be loaded/i);
    await expect(page.getByRole('button', { name: /retry/i })).toBeVisible();
    // Taken over: the layout's controls work. Until then the page may still be drawn again in the browser, and
    // the server's footer go from under the locator (the alert above can be the server's).
    await expectTakenOver(page);
    // The browser drew the page again (the server's HTML held no screen); its footer comes with its own code.
    await page.getByRole('contentinfo').scrollIntoViewIfNeeded();
    await expect(page.getByRole('contentinfo')).toContainText('California, United States');
  });
  await page.getByRole('button', { name: /retry/i }).click();
  await expect(productCards(page).first()).toBeVisible();
});
