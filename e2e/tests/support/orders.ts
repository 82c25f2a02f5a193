import { expect, test } from '@playwright/test';
import { IDEMPOTENT_REPLAYED_HEADER, type Order, type Product, type UserInfo } from '@shop/contracts';
import { TEST_SHIPPING_ADDRESS } from '../fixtures';
import { jsonLinesSince, type LogMark } from './logs';

/**
 * Shoppers placing orders through the API with every request and its answer kept, so what is stored
 * afterwards can be compared with what each shopper was told (faults.spec.ts, replicas/kills.spec.ts).
 */

/**
 * The recovery windows shortened, openly, to keep the suite's time (docs/reliability.md): an interrupted
 * checkout is given back after 15 s instead of 60 s, a stalled reservation after 4 s instead of 30 s.
 */
export const SHORTENED_RECOVERY_ENV = {
  RESERVATION_STALE_AFTER_MS: '4000',
  RESERVATION_RECOVERY_INTERVAL_MS: '2000',
  CHECKOUT_RECOVERY_MS: '15000',
  STOCK_RELEASE_RETRY_MS: '1000',
};

/** A JSON call; answers the status and the parsed body. */
export async function api<T>(url: string, init: { method?: string; token?: string; body?: unknown } = {}) {
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    headers: {
      'Content-Type': 'application/json',
      ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

/** One `POST /api/orders` and what it was answered. */
export interface Attempt {
  shopper: UserInfo;
  key: string;
  at: number;
  ms: number;
  status: number;
  /** The order's id on 201. */
  orderId?: string;
  /** The JSON body's `message` on a refusal, when it has one. */
  message?: string;
  /** The body when it is not JSON, or how the connection failed. */
  raw?: string;
  replayed: boolean;
}

/**
 * Orders `quantity` units of `productId` for `shopper` under `key` at `url` (the gateway, or one copy of
 * orders directly): the same body whenever it is retried.
 */
export async function placeOrder(
  url: string,
  shopper: UserInfo,
  productId: string,
  key: string,
  quantity = 1,
): Promise<Attempt> {
  const at = Date.now();
  const sent = { shopper, key, at, replayed: false };
  try {
    const response = await fetch(`${url}/api/orders`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Bearer ${shopper.token}`,
        'Idempotency-Key': key,
      },
      body: JSON.stringify({
        orderItems: [{ _id: productId, quantity }],
        shippingAddress: { fullName: shopper.name, ...TEST_SHIPPING_ADDRESS },
        paymentMethod: 'bitcoin',
      }),
      signal: AbortSignal.timeout(ORDER_REQUEST_TIMEOUT_MS),
    });
    const text = await response.text();
    const answered = { ...sent, ms: Date.now() - at, status: response.status };
    const replayed = response.headers.get(IDEMPOTENT_REPLAYED_HEADER) === 'true';
    let body: { _id?: unknown; message?: unknown };
    try {
      body = JSON.parse(text) as { _id?: unknown; message?: unknown };
    } catch {
      return { ...answered, raw: text.slice(0, 120) };
    }
    return {
      ...answered,
      replayed,
      ...(response.status === 201 && typeof body._id === 'string' && { orderId: body._id }),
      ...(typeof body.message === 'string' && { message: body.message }),
    };
  } catch (error) {
    return { ...sent, ms: Date.now() - at, status: 0, raw: String(error) };
  }
}

/**
 * Shoppers ordering one unit each, `loops` at a time per shopper, each order under a new Idempotency-Key,
 * until `until`: a time, or a test of the answers so far (checked before each order): every answer, its
 * time and its status.
 */
export async function shop(
  url: string,
  shoppers: UserInfo[],
  productId: string,
  until: number | ((attempts: Attempt[]) => boolean),
  loops: number,
): Promise<Attempt[]> {
  const attempts: Attempt[] = [];
  const done = typeof until === 'number' ? () => Date.now() >= until : () => until(attempts);
  await Promise.all(
    shoppers.flatMap((shopper) =>
      Array.from({ length: loops }, async () => {
        while (!done()) {
          attempts.push(await placeOrder(url, shopper, productId, crypto.randomUUID()));
          // A shopper's pause between orders; during an outage it keeps the refusals from flooding the log.
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }),
    ),
  );
  return attempts;
}

/** How long shoppers may go on waiting for a killed part to come back: a guard against one that never does. */
export const HANG_GUARD_MS = 60_000;

/** The longest one order request may take before it counts as unanswered. */
export const ORDER_REQUEST_TIMEOUT_MS = 70_000;

/**
 * `shop` for at least `minMs` and until every loop could send a request after `backAt(attempts)` (the
 * moment the killed parts were back), however long a busy machine takes to restart them; the end after
 * HANG_GUARD_MS is only a guard against a part that never comes back (the checks that follow fail then).
 */
export function shopPastRecovery(
  url: string,
  shoppers: UserInfo[],
  productId: string,
  loops: number,
  backAt: (attempts: Attempt[]) => number,
  minMs = 14_000,
): Promise<Attempt[]> {
  const started = Date.now();
  return shop(
    url,
    shoppers,
    productId,
    (attempts) =>
      Date.now() >= started + HANG_GUARD_MS ||
      (Date.now() >= started + minMs &&
        attempts.filter((attempt) => attempt.at >= backAt(attempts)).length >= shoppers.length * loops),
    loops,
  );
}

/** Every stored order of one product, read page by page as an admin. */
export async function storedOrdersOf(url: string, admin: UserInfo, productId: string): Promise<Order[]> {
  const found: Order[] = [];
  for (let page = 1; ; page += 1) {
    const { status, body } = await api<Order[]>(`${url}/api/orders?limit=500&page=${page}`, {
      token: admin.token,
    });
    expect(status).toBe(200);
    found.push(...body.filter((order) => order.orderItems.some((item) => item._id === productId)));
    if (body.length < 500) return found;
  }
}

/** A product's stock as `url` (the gateway, or one copy of products directly) answers it. */
export const stockOf = async (url: string, productId: string) =>
  (await api<Product>(`${url}/api/products/${productId}`)).body.countInStock;

/**
 * The reservations orders' recovery pass gave back (its log line), read from the logs of the named copies
 * of orders (`orders`, `orders-2`, ...), in that order: every one, or only those logged after `since`.
 */
export function releasedOrphans(logDir: string, instances: string[] = ['orders'], since?: LogMark): string[] {
  return instances.flatMap((instance) =>
    jsonLinesSince(logDir, instance, 'released the stock of a checkout without order', since).map((line) =>
      String(line['reservationId']),
    ),
  );
}

export const sorted = (ids: string[]) => [...ids].sort();

/** A product's stock on each of `urls` (each copy of products directly, or the gateway alone). */
const stocksOf = (urls: string[], productId: string) =>
  Promise.all(urls.map((url) => stockOf(url, productId)));

/**
 * Waits until the stock of the product is its start less its stored orders on each of `stockUrls`
 * (recovery has given back what interrupted checkouts held) and answers the stored orders' ids. Only a
 * wait: a doubled order that also took a unit keeps this equality; `expectOneOrderPerKey` is the check.
 */
export async function settledOrders(
  url: string,
  admin: UserInfo,
  productId: string,
  start: number,
  stockUrls: string[],
  settleMs: number,
): Promise<string[]> {
  let stored: string[] = [];
  await expect
    .poll(
      async () => {
        stored = (await storedOrdersOf(url, admin, productId)).map((order) => order._id);
        // Units taken beyond the stored orders, on each copy asked.
        return (await stocksOf(stockUrls, productId)).map((stock) => start - stock - stored.length);
      },
      { timeout: settleMs, intervals: [1_000], message: 'stock = start - stored orders' },
    )
    .toEqual(stockUrls.map(() => 0));
  return stored;
}

/**
 * Every refused request retried once the shop is whole, as a shopper's client would, under its own
 * Idempotency-Key and with the same body, while the shop answers "retry": a 409 for a key whose checkout is
 * still taken to be in flight (for 2 x the NATS timeout + 5 s after its claim), or whose interrupted checkout
 * was released (its reservation is gone; the key is free again for the next try); a 503 for a key whose
 * first refusal could not free it while the database was down, so the retry finishes the checkout under its
 * first order id, whose reservation the recovery pass has ended ("The products service is unavailable,
 * please try again"; that refusal frees the key, and the next try goes through). Up to fifteen tries a
 * second apart; every retry's last answer is returned, in the order of `refused`.
 */
export async function retryRefused(url: string, productId: string, refused: Attempt[]): Promise<Attempt[]> {
  const retries: Attempt[] = [];
  for (const attempt of refused) {
    let retry = await placeOrder(url, attempt.shopper, productId, attempt.key);
    for (let again = 0; [409, 503].includes(retry.status) && again < 15; again += 1) {
      await new Promise((resolve) => setTimeout(resolve, again === 0 ? 0 : 1_000));
      retry = await placeOrder(url, attempt.shopper, productId, attempt.key);
    }
    retries.push(retry);
  }
  return retries;
}

/** The order ids each Idempotency-Key was answered with (201s only, each id once), for every key sent. */
export function ordersByKey(attempts: Attempt[]): Map<string, string[]> {
  const byKey = new Map<string, string[]>(attempts.map((attempt) => [attempt.key, []]));
  for (const attempt of attempts) {
    const ids = byKey.get(attempt.key)!;
    if (attempt.status === 201 && !ids.includes(attempt.orderId!)) ids.push(attempt.orderId!);
  }
  return byKey;
}

/** What the checks of stored against answered orders read: the shop, the product and every answer. */
export interface StoredAgainstAnswered {
  url: string;
  admin: UserInfo;
  productId: string;
  start: number;
  attempts: Attempt[];
  stockUrls: string[];
  settleMs: number;
}

/**
 * What is stored against what was answered, per Idempotency-Key, once every refused request was retried:
 * each key was answered exactly one order, no two keys the same one, exactly those orders are stored
 * (stored count = acknowledged count: an order stored twice for one key, or for a retry that skipped
 * its key, is an order too many), and the stock on each of `stockUrls` is the start less one unit per
 * key. `attempts` holds every answer, the retries' included.
 */
export async function expectOneOrderPerKey(options: StoredAgainstAnswered): Promise<void> {
  const { url, admin, productId, start, attempts, stockUrls, settleMs } = options;
  const byKey = ordersByKey(attempts);
  expect(
    [...byKey].filter(([, ids]) => ids.length !== 1),
    'Idempotency-Keys not answered exactly one order',
  ).toEqual([]);
  const acknowledged = [...byKey.values()].flat();
  expect(
    acknowledged.filter((id, index) => acknowledged.indexOf(id) !== index),
    'orders answered to two keys',
  ).toEqual([]);
  await expect
    .poll(
      async () => ({
        stored: sorted((await storedOrdersOf(url, admin, productId)).map((order) => order._id)),
        stock: await stocksOf(stockUrls, productId),
      }),
      { timeout: settleMs, intervals: [1_000], message: 'stored = one order per key; stock = start - keys' },
    )
    .toEqual({ stored: sorted(acknowledged), stock: stockUrls.map(() => start - byKey.size) });
}

/**
 * After shoppers ordered while parts were killed: every 201 stored; every refused request retried under
 * its key until accepted, an order stored for a refused request given back to its retry (not placed
 * again); then `expectOneOrderPerKey`. Answers the orders stored before the retries, for checks of the
 * test's own (an interrupted checkout given back must not be among them).
 */
export async function expectAnswersTrueToWhatIsStored(
  options: StoredAgainstAnswered & {
    /** Annotated with how many refusals left an order. */
    what: string;
  },
): Promise<string[]> {
  const { url, admin, productId, start, attempts, stockUrls, settleMs, what } = options;
  const acknowledged = attempts
    .filter((attempt) => attempt.status === 201)
    .map((attempt) => attempt.orderId!);
  expect(
    acknowledged.filter((id, index) => acknowledged.indexOf(id) !== index),
    'orders answered 201 twice',
  ).toEqual([]);
  const stored = await settledOrders(url, admin, productId, start, stockUrls, settleMs);
  expect(
    acknowledged.filter((id) => !stored.includes(id)),
    'answered 201 but not stored',
  ).toEqual([]);
  // Whatever else is stored belongs to a refused request, and is what a retry under its key must get back.
  const leftByRefusals = stored.filter((id) => !acknowledged.includes(id));

  const retries = await retryRefused(
    url,
    productId,
    attempts.filter((attempt) => attempt.status !== 201),
  );
  expect(
    retries.filter((retry) => retry.status !== 201),
    'retries refused',
  ).toEqual([]);
  expect(
    sorted(retries.filter((retry) => retry.replayed).map((retry) => retry.orderId!)),
    'orders stored for refused requests, given back to their retries',
  ).toEqual(sorted(leftByRefusals));
  test.info().annotations.push({
    type: `refusals that left an order (${what})`,
    description: `${leftByRefusals.length} of ${retries.length}, each returned to its retry under the same Idempotency-Key`,
  });

  await expectOneOrderPerKey({
    url,
    admin,
    productId,
    start,
    attempts: [...attempts, ...retries],
    stockUrls,
    settleMs,
  });
  return stored;
}
