import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base, expect } from '@playwright/test';
import type { Product, UserInfo } from '@shop/contracts';
import { type RunningStack, type StackOptions, startStack } from '@shop/dev-stack';
import { SEEDED_ADMIN, signInThroughApi, signUpThroughApi } from './fixtures';
import { markLogs } from './support/logs';
import {
  type Attempt,
  api,
  expectAnswersTrueToWhatIsStored,
  releasedOrphans,
  HANG_GUARD_MS,
  ORDER_REQUEST_TIMEOUT_MS,
  SHORTENED_RECOVERY_ENV,
  shopPastRecovery,
} from './support/orders';

/**
 * Fault tests (docs/reliability.md): a shop supervised as `npm start` runs it, its data on disk so a killed
 * database comes back with it, shoppers placing orders through the gateway while one part is killed with
 * SIGKILL. Every request and its answer is kept, so what is stored afterwards can be compared with what
 * each shopper was told.
 *
 * Two stacks. The kill of orders runs on one with exactly `npm start`'s service settings (tools/dev-stack/src/start.ts
 * passes no service variable): `CHECKOUT_RECOVERY_MS` is also the cut-off inside a request, so requests
 * are cut off as users' are, and the test waits the real 60 s for the recovery pass. The kills of products, NATS and the database run on a
 * stack whose recovery windows are shortened, openly, to keep the suite's time (docs/reliability.md,
 * `SHORTENED_RECOVERY_ENV`).
 */

/** A line of the runner's console, with when it was written. */
interface ConsoleLine {
  at: number;
  text: string;
}

interface Supervised {
  stack: RunningStack;
  lines: ConsoleLine[];
  admin: UserInfo;
  shoppers: UserInfo[];
  image: string;
}

async function superviseShop(
  options: Pick<StackOptions, 'rateLimitFactor' | 'serviceEnv' | 'observability'>,
) {
  const dataDir = mkdtempSync(join(tmpdir(), 'shop-faults-'));
  const lines: ConsoleLine[] = [];
  const stack = await startStack({
    ports: 'free',
    dataDir,
    supervise: true,
    ...options,
    log: (text) => lines.push({ at: Date.now(), text }),
  });
  const admin = await signInThroughApi(stack.url, SEEDED_ADMIN.email, SEEDED_ADMIN.password);
  const shoppers = await Promise.all([1, 2, 3, 4].map(() => signUpThroughApi(stack.url)));
  const demo = (await (await fetch(`${stack.url}/api/products`)).json()) as Product[];
  const supervised: Supervised = { stack, lines, admin, shoppers, image: demo[0]!.image[0]! };
  return {
    supervised,
    async stop() {
      await stack.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const test = base.extend<object, { shortened: Supervised; asShipped: Supervised }>({
  shortened: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const { supervised, stop } = await superviseShop({
        rateLimitFactor: 50,
        serviceEnv: SHORTENED_RECOVERY_ENV,
        // Traces and metrics are not what this stack tests; their two processes would only take CPU.
        observability: false,
      });
      await use(supervised);
      await stop();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  asShipped: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      // npm start's settings: no service variable. Only the gateway's per-address limits are raised, as
      // for every browser test (fixtures.ts): here every shopper is the one address 127.0.0.1.
      const { supervised, stop } = await superviseShop({ rateLimitFactor: 50 });
      await use(supervised);
      await stop();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
});

// More than a dozen loops can buy in the run, so no refusal is an honest 'out of stock'.
const START_STOCK = 10_000;

interface KillPlan {
  part: 'products' | 'orders' | 'nats' | 'mongo';
  /** Concurrent order loops per shopper: more of them puts more checkouts mid-way at the kill. */
  loops: number;
  /**
   * Kill with reserves in flight: products is paused (SIGSTOP) for a moment so checkouts pile up waiting
   * for its answer, the part is killed, then products resumes and takes the stock of checkouts whose
   * orders process is gone. Without it the kill may find no checkout between its reserve and its insert.
   */
  reservesInFlight?: boolean;
  /** The recovery pass must show it gave back the stock of checkouts the kill interrupted. */
  expectRecovery: boolean;
  /** How long to wait for the stock to come out exact (the recovery window and a pass). */
  settleMs: number;
}

async function killWhileShopping(supervised: Supervised, plan: KillPlan): Promise<void> {
  const { stack, lines, admin, shoppers, image } = supervised;
  const { part } = plan;
  const created = await api<Product>(`${stack.url}/api/listings/create`, {
    method: 'POST',
    token: admin.token,
    body: {
      name: `Fault ${part} ${Date.now()}`,
      slug: '',
      image: [image],
      brand: 'Test',
      category: 'Faults',
      description: `Ordered while ${part} is killed`,
      price: 10,
      countInStock: START_STOCK,
    },
  });
  expect(created.status).toBe(201);
  const product = created.body;
  const logs = markLogs(stack.logDir, ['orders']);

  const seen = lines.length;
  const runnerLines = () => lines.slice(seen);
  const readyLine = () => runnerLines().find((line) => line.text.startsWith(`✓ ${part} is ready again`));
  const started = Date.now();
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  let killAt = started + 2_000;
  // Recovered: the part is ready again (its line on the console) and an order sent after the kill was
  // accepted; from then on every request must be accepted.
  const recoveredAt = (attempts: Attempt[]) =>
    Math.max(
      readyLine()?.at ?? Infinity,
      Math.min(
        ...attempts
          .filter((attempt) => attempt.status === 201 && attempt.at > killAt)
          .map((attempt) => attempt.at + attempt.ms),
      ),
    );
  // The shoppers go on for 14 s and past the recovery, until each loop could send a request after it.
  const load = shopPastRecovery(stack.url, shoppers, product._id, plan.loops, recoveredAt);
  if (plan.reservesInFlight) {
    const products = stack.pidOf('products')!;
    await sleep(killAt - 500 - Date.now());
    process.kill(products, 'SIGSTOP');
    await sleep(500);
    killAt = Date.now();
    process.kill(stack.pidOf(part)!, 'SIGKILL');
    await sleep(100);
    process.kill(products, 'SIGCONT');
  } else {
    await sleep(killAt - Date.now());
    process.kill(stack.pidOf(part)!, 'SIGKILL');
  }
  const attempts = await load;

  // The runner said what died and brought it back.
  expect(runnerLines().map((line) => line.text)).toContainEqual(
    expect.stringMatching(new RegExp(`✗ ${part} exited unexpectedly \\(signal SIGKILL\\)`)),
  );
  await expect.poll(() => readyLine() !== undefined, { timeout: 30_000 }).toBe(true);
  const readyAt = readyLine()!.at;

  const accepted = attempts.filter((attempt) => attempt.status === 201);
  const refused = attempts.filter((attempt) => attempt.status !== 201);
  test.info().annotations.push({
    type: `kill -9 ${part}`,
    description:
      `${attempts.length} requests: ${accepted.length} accepted, ${refused.length} refused ` +
      `(${[...new Set(refused.map((attempt) => attempt.status))].join(', ') || 'none'}); ` +
      `ready again ${readyAt - killAt} ms after the kill; slowest answer ` +
      `${Math.max(...attempts.map((attempt) => attempt.ms))} ms`,
  });

  // During the outage: only 502/503, each a JSON body with the promised message; no dropped connection.
  // (How long a request may take is a latency goal, bench/'s to measure: a request that hangs is cut by
  // placeOrder's own timeout and fails here as a refusal without a JSON 502/503.)
  expect(
    refused.filter(
      (attempt) => ![502, 503].includes(attempt.status) || !attempt.message || attempt.raw !== undefined,
    ),
    'refusals other than a 502/503 with a JSON message',
  ).toEqual([]);
  // In order: orders were taken before the kill, nothing was refused before it, an order sent after it
  // was taken again, and once the part was ready again and an order had been accepted, every later
  // request was accepted: no refusal after recovery.
  expect(accepted.some((attempt) => attempt.at < killAt)).toBe(true);
  expect(
    refused.filter((attempt) => attempt.at + attempt.ms < killAt),
    'refusals answered before the kill',
  ).toEqual([]);
  expect(
    accepted.filter((attempt) => attempt.at > killAt).length,
    'orders sent after the kill and accepted',
  ).toBeGreaterThan(0);
  const recovered = recoveredAt(attempts);
  expect(
    attempts.filter((attempt) => attempt.at >= recovered).length,
    'requests sent after the recovery',
  ).toBeGreaterThan(0);
  expect(
    refused.filter((attempt) => attempt.at >= recovered),
    'refusals of requests sent after the part was ready again and an order had been accepted',
  ).toEqual([]);

  // A checkout the kill interrupted between taking stock and storing its order holds stock until the
  // recovery pass gives it back. Where the test must see that, it waits for the pass to have done it.
  if (plan.expectRecovery) {
    await expect
      .poll(() => releasedOrphans(stack.logDir, ['orders'], logs).length, {
        timeout: plan.settleMs,
        intervals: [1_000],
        message: 'the recovery pass gave back the stock of at least one interrupted checkout',
      })
      .toBeGreaterThan(0);
  }

  // Stored against answered, per Idempotency-Key, with every refused request retried under its key.
  const storedBeforeRetries = await expectAnswersTrueToWhatIsStored({
    url: stack.url,
    admin,
    productId: product._id,
    start: START_STOCK,
    attempts,
    stockUrls: [stack.url],
    settleMs: plan.settleMs,
    what: `kill -9 ${part}`,
  });
  if (plan.expectRecovery) {
    const released = releasedOrphans(stack.logDir, ['orders'], logs);
    expect(
      released.filter((id) => storedBeforeRetries.includes(id)),
      'released and yet stored',
    ).toEqual([]);
    test.info().annotations.push({
      type: `recovery after kill -9 ${part}`,
      description: `the recovery pass gave back the stock of ${released.length} interrupted checkouts`,
    });
  }
}

/**
 * The test's time: the sum of its bounded waits, not a guess, so a busy machine that stays inside each
 * bound passes (one taken by a CPU burner once ran past a fixed 240 s). Shopping through the kill (until
 * the shoppers' hang guard, then the last request in flight), the wait for the runner's ready line
 * (30 s), three polls of up to `settleMs` (the recovery pass, stored against answered, one order per
 * key), and 30 s for the retries of refused requests and the checks.
 */
const timeoutFor = (plan: Pick<KillPlan, 'settleMs'>) =>
  HANG_GUARD_MS + ORDER_REQUEST_TIMEOUT_MS + 30_000 + 3 * plan.settleMs + 30_000;

for (const part of ['products', 'nats', 'mongo'] as const) {
  test(`orders survive a kill -9 of ${part}: every answer true to what is stored, stock exact`, async ({
    shortened,
  }) => {
    const plan = { part, loops: 1, expectRecovery: false, settleMs: 40_000 };
    test.setTimeout(timeoutFor(plan));
    await killWhileShopping(shortened, plan);
  });
}

test("orders survive a kill -9 of orders with npm start's settings: interrupted checkouts recovered, stock exact", async ({
  asShipped,
}) => {
  // A dozen checkouts in flight, held at their reserve when orders dies, so products takes their stock
  // for orders that are never stored; the recovery pass releases it CHECKOUT_RECOVERY_MS (60 s) after
  // each began. (A first version without the pause found no such checkout: nothing to recover.)
  const plan = {
    part: 'orders',
    loops: 3,
    reservesInFlight: true,
    expectRecovery: true,
    settleMs: 90_000,
  } as const;
  test.setTimeout(timeoutFor(plan));
  await killWhileShopping(asShipped, plan);
});
