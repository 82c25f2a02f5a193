import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base, expect } from '@playwright/test';
import type { Order, Product, UserInfo } from '@shop/contracts';
import { type RunningStack, type StackOptions, startStack } from '@shop/dev-stack';
import { SEEDED_ADMIN, signInThroughApi, signUpThroughApi } from './fixtures';
import {
  type Attempt,
  api,
  placeOrder,
  releasedOrphans,
  SHORTENED_RECOVERY_ENV,
  shop,
  sorted,
  stockOf,
  storedOrdersOf,
} from './support/orders';

/**
 * Fault tests (issues 14 and 27): a shop supervised as `npm start` runs it, its data on disk so a killed
 * database comes back with it, shoppers placing orders through the gateway while one part is killed with
 * SIGKILL. Every request and its answer is kept, so what is stored afterwards can be compared with what
 * each shopper was told.
 *
 * Two stacks. The kill of orders runs on one with exactly `npm start`'s service settings (tools/dev-stack/src/start.ts
 * passes no service variable): `CHECKOUT_RECOVERY_MS` is also the cut-off
 * inside a request, so the bounds on a request's time are measured as users have them, and the test
 * waits the real 60 s for the recovery pass. The kills of products, NATS and the database run on a
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
  const releasedBefore = part === 'orders' ? releasedOrphans(stack.logDir).length : 0;

  const seen = lines.length;
  const started = Date.now();
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const load = shop(stack.url, shoppers, product._id, started + 14_000, plan.loops);
  let killAt = started + 2_000;
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
  const runnerLines = () => lines.slice(seen);

  // The runner said what died and brought it back.
  expect(runnerLines().map((line) => line.text)).toContainEqual(
    expect.stringMatching(new RegExp(`✗ ${part} exited unexpectedly \\(signal SIGKILL\\)`)),
  );
  await expect
    .poll(() => runnerLines().some((line) => line.text.startsWith(`✓ ${part} is ready again`)), {
      timeout: 30_000,
    })
    .toBe(true);
  const readyAt = runnerLines().find((line) => line.text.startsWith(`✓ ${part} is ready again`))!.at;

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

  // During the outage: only 502/503, each a JSON body with the promised message; no dropped connection,
  // nobody waits over 15 s.
  expect(
    refused.filter(
      (attempt) => ![502, 503].includes(attempt.status) || !attempt.message || attempt.raw !== undefined,
    ),
    'refusals other than a 502/503 with a JSON message',
  ).toEqual([]);
  expect(Math.max(...attempts.map((attempt) => attempt.ms))).toBeLessThanOrEqual(15_000);
  expect(accepted.some((attempt) => attempt.at < killAt)).toBe(true);
  // Orders are taken again within 10 s of the kill, and once the part is ready again (its line on the
  // console, and a first order accepted) every later request is accepted: no refusal after recovery.
  const firstAfter = Math.min(
    ...accepted.filter((attempt) => attempt.at > killAt).map((attempt) => attempt.at + attempt.ms),
  );
  expect(firstAfter - killAt, 'ms from the kill to the first order accepted after it').toBeLessThanOrEqual(
    10_000,
  );
  const recovered = Math.max(readyAt, firstAfter);
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
      .poll(() => releasedOrphans(stack.logDir).length - releasedBefore, {
        timeout: plan.settleMs,
        intervals: [1_000],
        message: 'the recovery pass gave back the stock of at least one interrupted checkout',
      })
      .toBeGreaterThan(0);
  }

  // Stored against answered: every 201 is stored once; whatever else is stored belongs to a refused
  // request, and is what a retry of that request under its Idempotency-Key must get back.
  const acknowledged = accepted.map((attempt) => attempt.orderId!);
  expect(new Set(acknowledged).size, 'distinct orders answered 201').toBe(acknowledged.length);
  let stored: Order[] = [];
  await expect
    .poll(
      async () => {
        stored = await storedOrdersOf(stack.url, admin, product._id);
        return (await stockOf(stack.url, product._id)) === START_STOCK - stored.length;
      },
      { timeout: plan.settleMs, intervals: [1_000], message: 'stock = start - stored orders' },
    )
    .toBe(true);
  const storedIds = stored.map((order) => order._id);
  expect(
    acknowledged.filter((id) => !storedIds.includes(id)),
    'answered 201 but not stored',
  ).toEqual([]);
  const leftByRefusals = storedIds.filter((id) => !acknowledged.includes(id));
  if (plan.expectRecovery) {
    const released = releasedOrphans(stack.logDir).slice(releasedBefore);
    expect(
      released.filter((id) => storedIds.includes(id)),
      'released and yet stored',
    ).toEqual([]);
    test.info().annotations.push({
      type: `recovery after kill -9 ${part}`,
      description: `the recovery pass gave back the stock of ${released.length} interrupted checkouts`,
    });
  }

  // Every refused request retried once the shop is whole, as a shopper's client would, with its key.
  // A 409 may come first: a key whose checkout is still taken to be in flight (for 2 x the NATS timeout
  // + 5 s after its claim), or whose interrupted checkout was released (its reservation is gone; the key
  // is free again for the next try). The retry is repeated then; any other refusal here is a failure.
  const retries: Attempt[] = [];
  for (const attempt of refused) {
    let retry = await placeOrder(stack.url, attempt.shopper, product._id, attempt.key);
    for (let again = 0; retry.status === 409 && again < 15; again += 1) {
      await new Promise((resolve) => setTimeout(resolve, again === 0 ? 0 : 1_000));
      retry = await placeOrder(stack.url, attempt.shopper, product._id, attempt.key);
    }
    retries.push(retry);
  }
  expect(
    retries.filter((retry) => retry.status !== 201),
    'retries refused',
  ).toEqual([]);
  const replayed = retries.filter((retry) => retry.replayed).map((retry) => retry.orderId!);
  expect(sorted(replayed), 'orders stored for refused requests, given back to their retries').toEqual(
    sorted(leftByRefusals),
  );
  test.info().annotations.push({
    type: `refusals that left an order after kill -9 ${part}`,
    description: `${leftByRefusals.length}, each returned to its retry under the same Idempotency-Key`,
  });

  // Afterwards: exactly the answered orders are stored (the first answers and the retries'), once each,
  // and the stock is exact.
  const answered = [...acknowledged, ...retries.map((retry) => retry.orderId!)];
  expect(new Set(answered).size, 'one order per request').toBe(answered.length);
  await expect
    .poll(
      async () => {
        const final = (await storedOrdersOf(stack.url, admin, product._id)).map((order) => order._id);
        return {
          stored: sorted(final),
          stock: await stockOf(stack.url, product._id),
          expected: START_STOCK - final.length,
        };
      },
      { timeout: plan.settleMs, intervals: [1_000] },
    )
    .toEqual({
      stored: sorted([...new Set(answered)]),
      stock: START_STOCK - new Set(answered).size,
      expected: START_STOCK - new Set(answered).size,
    });
}

for (const part of ['products', 'nats', 'mongo'] as const) {
  test(`orders survive a kill -9 of ${part}: every answer true to what is stored, stock exact`, async ({
    shortened,
  }) => {
    test.setTimeout(120_000);
    await killWhileShopping(shortened, { part, loops: 1, expectRecovery: false, settleMs: 40_000 });
  });
}

test("orders survive a kill -9 of orders with npm start's settings: interrupted checkouts recovered, stock exact", async ({
  asShipped,
}) => {
  test.setTimeout(180_000);
  // A dozen checkouts in flight, held at their reserve when orders dies, so products takes their stock
  // for orders that are never stored; the recovery pass releases it CHECKOUT_RECOVERY_MS (60 s) after
  // each began. (A first version without the pause found no such checkout: nothing to recover.)
  await killWhileShopping(asShipped, {
    part: 'orders',
    loops: 3,
    reservesInFlight: true,
    expectRecovery: true,
    settleMs: 90_000,
  });
});
