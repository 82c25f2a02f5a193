import { type ConsoleMessage, type Locator, type Page, type Request, test as base } from '@playwright/test';
import { type RunningStack, startStack } from '@shop/tools';

interface WorkerFixtures {
  stack: RunningStack;
}

interface TestFixtures {
  /** Console warnings and errors the page printed during the test. */
  consoleProblems: ConsoleMessage[];
  /** Every URL the page requested during the test. */
  requests: string[];
}

/** The whole shop on free ports, started once per worker and stopped at its end. */
export const test = base.extend<TestFixtures, WorkerFixtures>({
  stack: [
    // Playwright reads a fixture's dependencies from its destructuring pattern; this one has none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const stack = await startStack({ ports: 'free' });
      await use(stack);
      await stack.stop();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  baseURL: async ({ stack }, use) => {
    await use(stack.url);
  },
  consoleProblems: async ({ page }, use) => {
    const problems: ConsoleMessage[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning' || message.type() === 'error') problems.push(message);
    });
    await use(problems);
  },
  requests: async ({ page }, use) => {
    const urls: string[] = [];
    page.on('request', (request: Request) => urls.push(request.url()));
    await use(urls);
  },
});

export { expect } from '@playwright/test';

/** The product cards of the home grid, found the way a screen reader user finds them. */
export function productCards(page: Page): Locator {
  return page.getByRole('list', { name: 'Products' }).getByRole('listitem');
}
