import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { IDEMPOTENT_REPLAYED_HEADER, type Order, type Product, type UserInfo } from '@shop/contracts';
import { TEST_SHIPPING_ADDRESS } from '../fixtures';

/**
 * Shoppers placing orders through the API with every request and its answer kept, so what is stored
 * afterwards can be compared with what each shopper was told (faults.spec.ts, replicas.spec.ts).
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
      signal: AbortSignal.timeout(70_000),
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
 * Shoppers ordering one unit each, `loops` at a time per shopper, until `until`, each order under a new
 * Idempotency-Key: every answer, its time and its status.
 */
export async function shop(
  url: string,
  shoppers: UserInfo[],
  productId: string,
  until: number,
  loops: number,
): Promise<Attempt[]> {
  const attempts: Attempt[] = [];
  await Promise.all(
    shoppers.flatMap((shopper) =>
      Array.from({ length: loops }, async () => {
        while (Date.now() < until) {
          attempts.push(await placeOrder(url, shopper, productId, crypto.randomUUID()));
          // A shopper's pause between orders; during an outage it keeps the refusals from flooding the log.
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }),
    ),
  );
  return attempts;
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
 * of orders (`orders`, `orders-2`, ...), in that order.
 */
export function releasedOrphans(logDir: string, instances: string[] = ['orders']): string[] {
  return instances.flatMap((instance) =>
    readFileSync(join(logDir, `${instance}.log`), 'utf8')
      .split('\n')
      .filter((line) => line.includes('released the stock of a checkout without order'))
      .map((line) => (JSON.parse(line) as { reservationId: string }).reservationId),
  );
}

export const sorted = (ids: string[]) => [...ids].sort();
