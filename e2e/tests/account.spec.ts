import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { mailCatcherMessages, type RunningStack } from '@shop/dev-stack';
import {
  callApi,
  expect,
  expectAxeClean,
  signInThroughApi,
  signUpThroughApi,
  startSignedIn,
  test,
  uniqueEmail,
} from './fixtures';

const RESET_CODE = /Your password reset code is (\d{6})/;

/** The reset code of the newest message to this address in the stack's mail catcher. */
async function codeInMailCatcher(webUrl: string, email: string): Promise<string | undefined> {
  for (const message of await mailCatcherMessages(webUrl, { to: email })) {
    const code = RESET_CODE.exec(message.text)?.[1];
    if (code) return code;
  }
  return undefined;
}

/** The reset code of the newest `.eml` file the users service wrote to this address. */
async function codeInOutbox(outboxDir: string, email: string): Promise<string | undefined> {
  const names = (await readdir(outboxDir).catch(() => [] as string[])).filter((name) =>
    name.endsWith('.eml'),
  );
  for (const name of names.sort().reverse()) {
    const message = await readFile(join(outboxDir, name), 'utf8');
    const code = RESET_CODE.exec(message)?.[1];
    if (code && message.toLowerCase().includes(`to: ${email}`)) return code;
  }
  return undefined;
}

/**
 * The reset code e-mailed to this address: read from the stack's mail catcher, where the users service
 * sends by SMTP; from its `.eml` files where the stack runs none (Mailpit not built, no Go).
 */
async function resetCodeSentTo(stack: RunningStack, email: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const code = stack.mail
      ? await codeInMailCatcher(stack.mail.webUrl, email)
      : await codeInOutbox(stack.outboxDir, email);
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no reset code for ${email} in ${stack.mail?.webUrl ?? stack.outboxDir}`);
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: /^Hello, / }).click();
  await page.getByRole('menuitem', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/signin$/);
}

test('sign up, sign out, then sign in through a redirect back to the page asked for', async ({ page }) => {
  const email = uniqueEmail('signup');
  await page.goto('/signup');
  await page.getByLabel('Name').fill('Casey Buyer');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('correct-horse-battery');
  await page.getByLabel('Confirm Password').fill('correct-horse-battery');
  await page.getByRole('button', { name: 'Sign Up' }).click();

  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Hello, Casey Buyer' })).toBeVisible();
  await signOut(page);
  expect(await page.evaluate(() => window.localStorage.getItem('userInfo'))).toBeNull();

  // A signed-out visitor asking for a signed-in page is sent to sign in, then back.
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/signin\?redirect=%2Fprofile$/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('correct-horse-battery');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByLabel('Name')).toHaveValue('Casey Buyer');
});

test('a wrong password is refused with the server message and nobody is signed in', async ({
  page,
  baseURL,
}) => {
  const user = await signUpThroughApi(baseURL!);
  await page.goto('/signin');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: /invalid|incorrect/i })).toBeVisible();
  await expect(page).toHaveURL(/\/signin$/);
  expect(await page.evaluate(() => window.localStorage.getItem('userInfo'))).toBeNull();
});

test('forgot password, reset with the e-mailed code, sign in with the new password', async ({
  page,
  baseURL,
  stack,
}) => {
  const user = await signUpThroughApi(baseURL!, { password: 'old-correct-horse' });
  await page.goto('/signin');
  await page.getByRole('link', { name: 'Forgot Password?' }).click();
  // The router keeps the sign-in screen, with its own Email field, until the next screen's code is in.
  await expect(page.getByRole('heading', { name: 'Forgot Password', level: 1 })).toBeVisible();
  await page.getByLabel('Email').fill(user.email);
  await page.getByRole('button', { name: 'Request password reset' }).click();
  await expect(page.getByText('Password reset link has been sent to your email!')).toBeVisible();
  await expect(page).toHaveURL(/\/reset-password$/);
  // The address of the first step is kept: not asked again.
  await expect(page.getByLabel('Email')).toHaveCount(0);

  const code = await resetCodeSentTo(stack, user.email);
  await page.getByLabel('OTP').fill(code);
  await page.getByLabel('New Password', { exact: true }).fill('new-correct-horse');
  await page.getByLabel('Confirm New Password').fill('new-correct-horse');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByText('Password reset successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/signin$/);

  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill('new-correct-horse');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByRole('button', { name: `Hello, ${user.name}` })).toBeVisible();
});

test("the mail catcher's inbox shows the e-mail a shopper was sent", async ({ page, baseURL, stack }) => {
  // The test tools include Mailpit (ensure-tools --servers): a stack without it is a broken set-up here.
  expect(stack.mail, 'the test stack runs the mail catcher').toBeDefined();
  const user = await signUpThroughApi(baseURL!);
  await callApi(baseURL!, 'POST', '/api/users/forgot-password', undefined, { email: user.email });
  const code = await resetCodeSentTo(stack, user.email);

  await page.goto(stack.mail!.webUrl);
  await expect(page).toHaveTitle('Shop mail');
  await page.getByLabel('To').fill(user.email);
  await page.getByRole('button', { name: 'Find' }).click();
  const messages = page.getByRole('region', { name: 'Messages' });
  await expect(messages.getByRole('listitem')).toHaveCount(1);
  await expect(messages.getByRole('listitem')).toContainText(`to ${user.email}`);
  await messages.getByRole('link', { name: 'Your password reset code' }).click();

  const message = page.getByRole('region', { name: 'Message' });
  await expect(message.getByRole('heading', { name: 'Your password reset code', level: 2 })).toBeVisible();
  await expect(message.getByRole('row', { name: `To ${user.email}` })).toBeVisible();
  await expect(message.getByText(`Your password reset code is ${code}`)).toBeVisible();
  await expectAxeClean(page);
});

test('a wrong reset code is refused with the spec message', async ({ page, baseURL }) => {
  const user = await signUpThroughApi(baseURL!);
  await page.goto('/reset-password');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('OTP').fill('000000');
  await page.getByLabel('New Password', { exact: true }).fill('new-correct-horse');
  await page.getByLabel('Confirm New Password').fill('new-correct-horse');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByText('Password reset failed, invalid OTP')).toBeVisible();
  await expect(page).toHaveURL(/\/reset-password$/);
});

/** Clicks Update and answers the status of the profile call it made, once its toast is shown. */
async function updateProfile(page: Page): Promise<number> {
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/api/users/profile') && r.request().method() === 'PUT'),
    page.getByRole('button', { name: 'Update' }).click(),
  ]);
  return response.status();
}

test('profile: change the name, then the password with the current one', async ({ page, baseURL }) => {
  const user = await signUpThroughApi(baseURL!, { name: 'Dana Old', password: 'old-correct-horse' });
  await startSignedIn(page, user);
  await page.goto('/profile');

  await page.getByLabel('Name').fill('Dana New');
  await expect(page.getByLabel('Current Password')).toHaveCount(0);
  expect(await updateProfile(page)).toBe(200);
  await expect(page.getByText('User updated successfully')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Hello, Dana New' })).toBeVisible();

  await page.getByLabel('Password', { exact: true }).fill('new-correct-horse');
  await page.getByLabel('Confirm Password').fill('new-correct-horse');
  await page.getByLabel('Current Password').fill('old-correct-horse');
  expect(await updateProfile(page)).toBe(200);
  await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');

  // The stored token is the fresh one: the session goes on after the password change ended the others.
  await page.reload();
  await page.getByLabel('Name').fill('Dana Newer');
  expect(await updateProfile(page)).toBe(200);

  const again = await signInThroughApi(baseURL!, user.email, 'new-correct-horse');
  expect(again.name).toBe('Dana Newer');
  await expect(signInThroughApi(baseURL!, user.email, 'old-correct-horse')).rejects.toThrow(/401/);
});

test('a revoked token leads back to sign-in with the page kept as the redirect', async ({
  page,
  baseURL,
}) => {
  const user = await signUpThroughApi(baseURL!, { password: 'old-correct-horse' });
  await startSignedIn(page, user);
  await page.goto('/profile');
  await expect(page.getByLabel('Name')).toHaveValue(user.name);

  // Elsewhere, the password changes: every earlier session ends, this page's too.
  const other = await signInThroughApi(baseURL!, user.email, 'old-correct-horse');
  const change = await fetch(`${baseURL}/api/users/profile`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${other.token}` },
    body: JSON.stringify({ password: 'new-correct-horse', currentPassword: 'old-correct-horse' }),
  });
  expect(change.status).toBe(200);

  await page.getByLabel('Name').fill('Someone Else');
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(page).toHaveURL(/\/signin\?redirect=%2Fprofile$/);
  await expect(page.getByText('Your session has ended. Please sign in again.')).toBeVisible();
  expect(await page.evaluate(() => window.localStorage.getItem('userInfo'))).toBeNull();

  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill('new-correct-horse');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/profile$/);
});

test('the user menu and the admin menu work from the keyboard', async ({ admin, page }) => {
  await startSignedIn(page, admin);
  await page.goto('/profile');

  const adminMenu = page.getByRole('button', { name: /ADMIN FEATURES/ });
  await adminMenu.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: 'Add Product' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: 'View All Users' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(adminMenu).toBeFocused();

  const userMenu = page.getByRole('button', { name: /^Hello, / });
  await userMenu.focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: 'Order History' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/orderhistory$/);
});

for (const width of [320, 1280]) {
  test(`every shell screen is axe clean at ${width} px and nothing overflows sideways`, async ({
    admin,
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    const screens: Array<[path: string, heading: string]> = [
      ['/signin', 'Sign In'],
      ['/signup', 'Sign Up'],
      ['/forgot-password', 'Forgot Password'],
      ['/reset-password', 'Reset Password'],
      ['/no-such-page', 'Page Not Found'],
    ];
    for (const [path, heading] of screens) {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
      // The footer's contact details load once it is scrolled to, as a shopper would.
      await page.getByRole('contentinfo').scrollIntoViewIfNeeded();
      await expect(page.getByRole('contentinfo').getByRole('link', { name: /@/ })).toBeVisible();
      await expectAxeClean(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    }

    // Signed in as an admin: the profile with its admin menu open, and the open user menu.
    await startSignedIn(page, admin);
    await page.goto('/profile');
    await expect(page.getByRole('heading', { name: 'User Profile' })).toBeVisible();
    await expectAxeClean(page);
    await page.getByRole('button', { name: /ADMIN FEATURES/ }).click();
    await expect(page.getByRole('menu')).toBeVisible();
    await expectAxeClean(page);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: /^Hello, / }).click();
    await expect(page.getByRole('menu')).toBeVisible();
    await expectAxeClean(page);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: /All/ }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectAxeClean(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  });
}
