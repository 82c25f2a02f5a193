// The shop set up for orders as the bench's sections place them (orders, group-commit, order-commands,
// scaling, tracing): buyers and products made through the gateway, untimed, and the order requests the load
// generator sends.
import { randomUUID } from 'node:crypto';
import type autocannon from 'autocannon';
import type { Order, Product, UserInfo } from '@shop/contracts';

/** Products per buyer: consecutive orders in flight (≤ connections) never share a product. */
export const PRODUCTS_PER_BUYER = 4;
/** Far more than any run can sell: a 409 would mean something other than running out. */
const STOCK = 1_000_000;

interface Answer<T> {
  status: number;
  body: T;
  headers: Headers;
}

async function call<T>(
  base: string,
  path: string,
  init: { method?: string; token?: string; json?: unknown } = {},
): Promise<Answer<T>> {
  const response = await fetch(`${base}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.json !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}),
    },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: (text ? JSON.parse(text) : undefined) as T,
    headers: response.headers,
  };
}

async function expectOk<T>(what: string, answer: Promise<Answer<T>>): Promise<T> {
  const { status, body } = await answer;
  if (status < 200 || status > 299) throw new Error(`${what} answered ${status}: ${JSON.stringify(body)}`);
  return body;
}

export interface Setup {
  admin: UserInfo;
  buyers: UserInfo[];
  products: Product[];
}

/** Signs the admin in, signs `buyerCount` buyers up and lists their products (each with plenty of stock). */
export async function setUp(base: string, buyerCount: number): Promise<Setup> {
  const admin = await expectOk<UserInfo>(
    'admin sign-in',
    call(base, '/api/users/signin', {
      method: 'POST',
      json: { email: 'admin@shop.local', password: 'admin-password-123' },
    }),
  );
  const run = Date.now();
  // Sign-ups hash passwords (argon2): a few at a time keeps the setup short without a queue.
  const buyers: UserInfo[] = [];
  for (let i = 0; i < buyerCount; i += 4) {
    const batch = Array.from({ length: Math.min(4, buyerCount - i) }, (_, j) =>
      expectOk<UserInfo>(
        'buyer sign-up',
        call(base, '/api/users/signup', {
          method: 'POST',
          json: {
            name: `Bench Buyer ${i + j + 1}`,
            email: `bench-buyer-${run}-${i + j}@example.com`,
            password: 'correct-horse-battery',
          },
        }),
      ),
    );
    buyers.push(...(await Promise.all(batch)));
  }
  const demo = await expectOk<Product[]>('catalogue read', call(base, '/api/products'));
  const image = demo[0]?.image[0];
  if (!image) throw new Error('the demo catalogue has no image to reuse');
  const products: Product[] = [];
  for (let i = 0; i < buyerCount * PRODUCTS_PER_BUYER; i += 1) {
    products.push(
      await expectOk<Product>(
        'listing',
        call(base, '/api/listings/create', {
          method: 'POST',
          token: admin.token,
          json: {
            name: `Bench Product ${i + 1} ${run}`,
            slug: '',
            image: [image],
            brand: 'Glock',
            category: 'Accessories',
            description: 'A product of the orders benchmark',
            price: 10 + i * 0.25,
            countInStock: STOCK,
          },
        }),
      ),
    );
  }
  return { admin, buyers, products };
}

/**
 * The order requests: round robin over (buyer, product), so the orders in flight at once are for
 * distinct products; each with its own Idempotency-Key, as the storefront sends them.
 */
/** The JSON body of a buyer's order of one unit of a product. */
export function orderBody(buyer: UserInfo, product: Product): string {
  return JSON.stringify({
    orderItems: [{ _id: product._id, quantity: 1 }],
    shippingAddress: {
      fullName: buyer.name,
      address: '1 Bench Street',
      city: 'Fresno',
      country: 'United States',
      phoneNumber: '+1 555 0100',
    },
    paymentMethod: 'cashapp',
  });
}

export function orderRequests(buyers: UserInfo[], products: Product[]): autocannon.Request[] {
  let next = 0;
  return [
    {
      method: 'POST',
      setupRequest: (request) => {
        const n = next;
        next += 1;
        const buyer = buyers[n % buyers.length]!;
        const product = products[n % products.length]!;
        return {
          ...request,
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${buyer.token}`,
            'idempotency-key': randomUUID(),
          },
          body: orderBody(buyer, product),
        };
      },
    },
  ];
}

/**
 * `GET /api/products/slug/:slug` with a query string of its own per request: the catalogue cache is keyed
 * by URL, so every read misses it and goes to the database.
 */
export function uncachedReads(base: string, slug: string): Pick<autocannon.Options, 'url' | 'requests'> {
  let miss = 0;
  return {
    url: `${base}/api/products/slug/${slug}`,
    requests: [
      {
        method: 'GET',
        setupRequest: (request) => {
          miss += 1;
          return { ...request, path: `/api/products/slug/${slug}?miss=${miss}` };
        },
      },
    ],
  };
}

export async function storedOrders(base: string, admin: UserInfo): Promise<number> {
  const answer = await call<Order[]>(base, '/api/orders?page=1&limit=1', { token: admin.token });
  const total = Number(answer.headers.get('x-total-count'));
  if (answer.status !== 200 || !Number.isFinite(total))
    throw new Error(`order count answered ${answer.status}`);
  return total;
}
