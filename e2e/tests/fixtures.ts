import AxeBuilder from '@axe-core/playwright';
import {
  type Browser,
  type BrowserContext,
  type ConsoleMessage,
  expect,
  type Locator,
  type Page,
  type Request,
  test as base,
} from '@playwright/test';
import type { UserInfo } from '@shop/contracts';
import { type RunningStack, addressLimitsRaisedTo, startStack } from '@shop/dev-stack';

interface WorkerFixtures {
  stack: RunningStack;
}

interface TestFixtures {
  /** The seeded admin, signed in through the API for this test. */
  admin: UserInfo;
  /** Console warnings and errors the page printed during the test. */
  consoleProblems: ConsoleMessage[];
  /** Every URL the page requested during the test. */
  requests: string[];
  /**
   * Server-rendered pages the browser could not take over (a hydration mismatch, which the shell reports on
   * the console, shell/src/bootstrap.tsx): the test fails on any, whatever it was about.
   */
  hydrationFailures: string[];
  /**
   * Content-Security-Policy violations seen by any page of the test, in every browser context it opened;
   * the test fails on any (docs/security.md). A test that provokes one on purpose takes them out.
   */
  cspViolations: CspViolation[];
}

/** What a page's `securitypolicyviolation` event says. */
export interface CspViolation {
  directive: string;
  blockedURI: string;
  documentURI: string;
  sourceFile: string;
  lineNumber: number;
  sample: string;
}

const CSP_BINDING = '__shopCspViolation';

/** How the shell reports a server-rendered page it could not take over (shell/src/bootstrap.tsx). */
const HYDRATION_FAILURE = 'The page could not take over its server-rendered HTML';
const watchedContexts = new WeakSet<BrowserContext>();

/** Sends every CSP violation of the context's pages, in every frame, to `sink`. */
async function watchCspViolations(context: BrowserContext, sink: CspViolation[]): Promise<void> {
  if (watchedContexts.has(context)) return;
  watchedContexts.add(context);
  await context.exposeBinding(CSP_BINDING, (_source, violation: CspViolation) => {
    sink.push(violation);
  });
  await context.addInitScript((binding) => {
    document.addEventListener(
      'securitypolicyviolation',
      (event) => {
        const report = (window as unknown as Record<string, (violation: unknown) => void>)[binding];
        report?.({
          directive: event.effectiveDirective,
          blockedURI: event.blockedURI,
          documentURI: event.documentURI,
          sourceFile: event.sourceFile,
          lineNumber: event.lineNumber,
          sample: event.sample,
        });
      },
      true,
    );
  }, CSP_BINDING);
}

/**
 * The gateway's limits are per address, and every test here comes from 127.0.0.1: the journeys sign in
 * and up more often in a minute than one person would (10 sign-ins a minute in kong.yml). Raised openly
 * for the test stack only; the limits themselves are tested by the gateway's own tests.
 */
const TEST_RATE_LIMIT_FACTOR = 20;

/**
 * How long a products copy may keep a catalogue answer in memory when no event dropped it: the backstop of
 * `CATALOG_CACHE_MAX_AGE_MS`, at npm start's value (the products service's default). The stacks of the
 * browser tests set it, so a test that must tell an event's invalidation from the backstop's expiry
 * reads the value in force here rather than a copy of it.
 */
export const CATALOG_CACHE_MAX_AGE_MS = 60_000;
export const CATALOG_CACHE_ENV = { CATALOG_CACHE_MAX_AGE_MS: String(CATALOG_CACHE_MAX_AGE_MS) };

/**
 * How long the catalog's render service serves a rendered page as it is when no change dropped it
 * (`RENDER_CACHE_FRESH_MS`, at its default): set here for the same reason as the backstop above.
 */
export const RENDER_CACHE_FRESH_MS = 60_000;

/**
 * vmalert evaluates the shipped alert rules this many times faster on the test stack (every window, `for`
 * and interval divided by it; docs/observability.md, "Alerts locally"): the checkout's fast burn-rate alert
 * compares 2.5 minutes with 12.5 seconds instead of an hour with five minutes. The alerts' waits are the
 * windows themselves, whatever the machine: at 12 times they were a third of the browser tests' time.
 */
export const TEST_ALERTS_SPEEDUP = 24;

/**
 * How often the test stack's VictoriaMetrics scrapes every part: the shortest window of the sped-up rules
 * (5 minutes / TEST_ALERTS_SPEEDUP, 12.5 s) still holds six samples.
 */
const TEST_SCRAPE_INTERVAL_SECONDS = 2;

/** The users service's own limits per address (20 sign-ups in 15 minutes, ...) meet the same fact. */
const TEST_SERVICE_ENV = {
  ...addressLimitsRaisedTo(1000),
  ...CATALOG_CACHE_ENV,
  RENDER_CACHE_FRESH_MS: String(RENDER_CACHE_FRESH_MS),
};

/** The whole shop on free ports, started once per worker and stopped at its end. */
export const test = base.extend<TestFixtures, WorkerFixtures>({
  stack: [
    // Playwright reads a fixture's dependencies from its destructuring pattern; this one has none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const stack = await startStack({
        ports: 'free',
        rateLimitFactor: TEST_RATE_LIMIT_FACTOR,
        serviceEnv: TEST_SERVICE_ENV,
        alertsSpeedup: TEST_ALERTS_SPEEDUP,
        scrapeIntervalSeconds: TEST_SCRAPE_INTERVAL_SECONDS,
      });
      await use(stack);
      await stack.stop();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  baseURL: async ({ stack }, use) => {
    await use(stack.url);
  },
  admin: async ({ stack }, use) => {
    await use(await signInThroughApi(stack.url, SEEDED_ADMIN.email, SEEDED_ADMIN.password));
  },
  consoleProblems: async ({ page }, use) => {
    const problems: ConsoleMessage[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning' || message.type() === 'error') problems.push(message);
    });
    await use(problems);
  },
  cspViolations: [
    async ({ browser, context }, use) => {
      const violations: CspViolation[] = [];
      await watchCspViolations(context, violations);
      // Contexts a test opens itself (a second user) are watched too.
      const newContext = browser.newContext.bind(browser);
      const patched = browser as { newContext: Browser['newContext'] };
      patched.newContext = async (options) => {
        const opened = await newContext(options);
        await watchCspViolations(opened, violations);
        return opened;
      };
      try {
        await use(violations);
      } finally {
        Reflect.deleteProperty(patched, 'newContext');
      }
      if (violations.length > 0) {
        const lines = violations.map(
          (v) =>
            `  ${v.directive} blocked ${v.blockedURI || '(inline)'} on ${v.documentURI}` +
            (v.sourceFile ? ` (${v.sourceFile}:${v.lineNumber})` : '') +
            (v.sample ? ` sample: ${v.sample}` : ''),
        );
        throw new Error(`Content-Security-Policy violations:\n${lines.join('\n')}`);
      }
    },
    { auto: true },
  ],
  hydrationFailures: [
    async ({ context }, use) => {
      const failures: string[] = [];
      context.on('console', (message) => {
        if (message.text().startsWith(HYDRATION_FAILURE))
          failures.push(`${message.page()?.url() ?? '(no page)'}: ${message.text()}`);
      });
      await use(failures);
      if (failures.length > 0) throw new Error(`Hydration failed:\n  ${failures.join('\n  ')}`);
    },
    { auto: true },
  ],
  requests: async ({ page }, use) => {
    const urls: string[] = [];
    page.on('request', (request: Request) => urls.push(request.url()));
    await use(urls);
  },
});

export { expect };

/** The product cards of the home grid, found the way a screen reader user finds them. */
export function productCards(page: Page): Locator {
  return page.getByRole('list', { name: 'Products' }).getByRole('listitem');
}

/**
 * Opens a card's product page by its name link, as a shopper does, and waits for that page itself: until the
 * product screen's code has arrived the router keeps the grid on screen, with its many 'Add to Cart' buttons.
 */
export async function openProductPage(page: Page, card: Locator): Promise<void> {
  const link = card.getByRole('heading', { level: 2 }).getByRole('link');
  const name = await link.innerText();
  await link.click();
  await expect(page.getByRole('heading', { level: 1, name, exact: true })).toBeVisible();
}

/** The admin `npm start` and the test stack seed into an empty users database (README, "Accounts"). */
export const SEEDED_ADMIN = { email: 'admin@shop.local', password: 'admin-password-123' } as const;

let accounts = 0;

/**
 * Waits until a server-rendered page's code has taken it over: the theme button, drawn disabled until
 * hydration (docs/rendering.md, "Content before code"), is enabled. A press during hydration can land on
 * a node React is replacing and be lost; a test about what the page's code does waits for this first.
 */
export async function expectTakenOver(page: Page): Promise<void> {
  await expect(page.getByRole('button', { name: /^Switch to (dark|light) mode$/ })).toBeEnabled();
}

/** Runs `body` with a part of the shop stopped, and starts the part again once it is done, failed or not. */
export async function whilePartDown(
  stack: RunningStack,
  part: Parameters<RunningStack['stopPart']>[0],
  body: () => Promise<void>,
): Promise<void> {
  await stack.stopPart(part);
  try {
    await body();
  } finally {
    await stack.startPart(part);
  }
}

/** An e-mail address no other test uses. */
export function uniqueEmail(prefix = 'shopper'): string {
  accounts += 1;
  return `${prefix}-${Date.now().toString(36)}-${accounts}@example.com`;
}

/** A JSON call through the gateway as `token`'s user (or nobody); a non-2xx throws with the server's message. */
export async function callApi<T>(
  baseURL: string,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${baseURL}${path}`, {
    method,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = (await response.json()) as T & { message?: string };
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${answer.message}`);
  return answer;
}

const postJson = <T>(url: string, body: unknown): Promise<T> => {
  const { origin, pathname } = new URL(url);
  return callApi<T>(origin, 'POST', pathname, undefined, body);
};

/** Uploads a PNG as this user through `POST /api/media`, as the upload screens do; answers its URL. */
export async function uploadImageThroughApi(
  baseURL: string,
  token: string,
  name: string,
  bytes: Buffer,
): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), name);
  const response = await fetch(`${baseURL}/api/media`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  const answer = (await response.json()) as { url: string; message?: string };
  if (!response.ok) throw new Error(`upload answered ${response.status}: ${answer.message}`);
  return answer.url;
}

/** A delivery address every order placed through the API may use. */
export const TEST_SHIPPING_ADDRESS = {
  address: '1 Main St',
  city: 'Fresno',
  country: 'United States',
  phoneNumber: '+1 555 0100',
} as const;

/** Creates a shopper through the API (for tests whose subject is not sign-up itself). */
export function signUpThroughApi(
  baseURL: string,
  account: { name?: string; email?: string; password?: string } = {},
): Promise<UserInfo> {
  return postJson<UserInfo>(`${baseURL}/api/users/signup`, {
    name: account.name ?? 'Test Shopper',
    email: account.email ?? uniqueEmail(),
    password: account.password ?? 'correct-horse-battery',
  });
}

/** Signs in through the API and answers the user info the storefront keeps. */
export function signInThroughApi(baseURL: string, email: string, password: string): Promise<UserInfo> {
  return postJson<UserInfo>(`${baseURL}/api/users/signin`, { email, password });
}

/** Starts the page signed in as this user, as if they had signed in earlier (the `userInfo` storage key). */
export async function startSignedIn(page: Page, userInfo: UserInfo): Promise<void> {
  await page.addInitScript((stored) => {
    if (window.localStorage.getItem('userInfo') === null) window.localStorage.setItem('userInfo', stored);
  }, JSON.stringify(userInfo));
}

/**
 * Runs axe on the page as it is now (every rule axe runs by default, best practices included) and fails on
 * any violation, whatever its impact, naming each rule and the elements it found.
 */
export async function expectAxeClean(page: Page): Promise<void> {
  // A toast or a dialog still fading in is measured at part opacity (a contrast failure that no shopper
  // sees): let the short entrance animations end first, not the toast's timer bar, which runs as long as
  // the toast shows.
  await page.waitForFunction(
    () =>
      document
        .getAnimations()
        .every(
          (animation) =>
            animation.playState !== 'running' ||
            Number(animation.effect?.getComputedTiming().endTime ?? 0) > 2_000,
        ),
    undefined,
    { timeout: 5_000 },
  );
  const results = await new AxeBuilder({ page }).analyze();
  const report = results.violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.help}\n` +
      violation.nodes.map((node) => `    ${node.target.join(' ')}`).join('\n'),
  );
  if (report.length > 0) throw new Error(`axe found violations on ${page.url()}:\n${report.join('\n')}`);
}
