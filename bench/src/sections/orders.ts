// docs/performance.md, "Orders": placing orders for distinct products with 32 concurrent buyers through the
// gateway, against reading one product by slug through the gateway in the same run with as many connections.
// Setup (buyers signed up, products listed by the admin) is not timed. Any answer but 201 to an order, or a
// connection error, fails the figure: a refusal is not a fast order.
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import type { Order, Product, UserInfo } from '@shop/contracts';
import type { RunningStack } from '@shop/dev-stack';
import { type BenchContext, type BenchSection, type Figure, figure, goalFigure } from '../lib/figure.js';
import { partClocks, spentSince } from '../lib/part-clocks.js';
import { spreadOf } from '../lib/regressions.js';

/** Products per buyer: consecutive orders in flight (≤ connections) never share a product. */
const PRODUCTS_PER_BUYER = 4;
/** Far more than any run can sell: a 409 would mean something other than running out. */
const STOCK = 1_000_000;
/** Each load phase starts with this much untimed load, so the JIT and the pools are warm. */
const WARM_UP_S = 2;
/** CPU per order across every part (docs/performance.md, "The hot paths' goals"; about 10 ms when it was set). */
const CPU_PER_ORDER_GOAL_US = 4_000;

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

export interface Load {
  /** 2xx answers per second over the measured phase. */
  rate: number;
  ok: number;
  failures: number;
  statuses: Record<string, number>;
  p50Ms: number;
  p99Ms: number;
}

export function summarize(result: autocannon.Result): Load {
  const statuses: Record<string, number> = {};
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = stats.count ?? 0;
  const ok = result['2xx'];
  return {
    rate: ok / result.duration,
    ok,
    failures: result.non2xx + result.errors,
    statuses,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
  };
}

/** Runs `options` for a short untimed warm-up, then for the measured duration. */
async function measure(
  context: BenchContext,
  options: Omit<autocannon.Options, 'duration' | 'connections'>,
): Promise<{ warmUp: Load; measured: Load }> {
  const run = (duration: number) =>
    autocannon({ ...options, duration, connections: context.connections, pipelining: 1 });
  const warmUp = summarize(await run(WARM_UP_S));
  const measured = summarize(await run(context.durationS));
  return { warmUp, measured };
}

/** CPU per answered request by part (µs), and each part's noise: the spread of two passes over their mean. */
export interface CpuPerAnswer {
  cpuUs: Record<string, number>;
  cpuNoise: Record<string, number>;
}

/**
 * As `measure`, with the measured duration in two halves, each timed by every part's CPU clock
 * (lib/part-clocks.ts; this process is the gateway and the load generator together): the CPU per answered
 * request by part, and how far the halves differ. The load of the halves together is the phase's.
 */
export async function measureWithCpu(
  context: BenchContext,
  options: Omit<autocannon.Options, 'duration' | 'connections'>,
  stack: RunningStack = context.stack,
): Promise<{ warmUp: Load; measured: Load; cpu: CpuPerAnswer; phases: number }> {
  const run = (duration: number) =>
    autocannon({ ...options, duration, connections: context.connections, pipelining: 1 });
  const warmUp = summarize(await run(WARM_UP_S));
  const halves: Array<{ result: autocannon.Result; perAnswerUs: Record<string, number> }> = [];
  for (const _half of [1, 2]) {
    const before = partClocks(stack);
    const result = await run(context.durationS / 2);
    const spent = spentSince(before, partClocks(stack));
    const answered = Math.max(1, result['2xx']);
    halves.push({
      result,
      perAnswerUs: Object.fromEntries(
        Object.entries(spent).map(([part, ms]) => [part, (ms * 1000) / answered]),
      ),
    });
  }
  const [first, second] = [halves[0]!, halves[1]!];
  const parts = Object.keys(first.perAnswerUs).filter(
    (part) => first.perAnswerUs[part]! + (second.perAnswerUs[part] ?? 0) > 0,
  );
  const cpu: CpuPerAnswer = {
    cpuUs: Object.fromEntries(
      parts.map((part) => [
        part,
        Math.round((first.perAnswerUs[part]! + (second.perAnswerUs[part] ?? 0)) / 2),
      ]),
    ),
    cpuNoise: Object.fromEntries(
      parts.map((part) => [
        part,
        Math.round(spreadOf(first.perAnswerUs[part]!, second.perAnswerUs[part] ?? 0) * 1000) / 1000,
      ]),
    ),
  };
  const [a, b] = [summarize(first.result), summarize(second.result)];
  const statuses = { ...a.statuses };
  for (const [code, count] of Object.entries(b.statuses)) statuses[code] = (statuses[code] ?? 0) + count;
  const measured: Load = {
    rate: (a.ok + b.ok) / (first.result.duration + second.result.duration),
    ok: a.ok + b.ok,
    failures: a.failures + b.failures,
    statuses,
    // Latency of the phase: the halves' medians averaged, the worse of their 99th percentiles.
    p50Ms: (a.p50Ms + b.p50Ms) / 2,
    p99Ms: Math.max(a.p99Ms, b.p99Ms),
  };
  // The warm-up and the two halves: each stops with up to one request per connection in flight.
  return { warmUp, measured, cpu, phases: 3 };
}

export const describeCpu = ({ cpuUs, cpuNoise }: CpuPerAnswer) =>
  Object.entries(cpuUs)
    .sort(([, a], [, b]) => b - a)
    .map(([part, us]) => `${part} ${us} µs (±${Math.round((cpuNoise[part] ?? 0) * 100)} %)`)
    .join(', ');

export const describe = (load: Load) =>
  `${load.ok} × 2xx, ${load.failures} failed (${Object.entries(load.statuses)
    .map(([code, count]) => `${code}×${count}`)
    .join(' ')}), p50 ${load.p50Ms} ms, p99 ${load.p99Ms} ms`;

export const ordersSection: BenchSection = {
  name: 'orders',
  async run(context: BenchContext): Promise<Figure[]> {
    const base = context.stack.url;
    const buyerCount = context.connections;
    context.log(
      `setting up ${buyerCount} buyers and ${buyerCount * PRODUCTS_PER_BUYER} products (not timed)...`,
    );
    const { admin, buyers, products } = await setUp(base, buyerCount);
    const before = await storedOrders(base, admin);

    const slug = products[0]!.slug;
    context.log(`reads: GET /api/products/slug/${slug}, ${context.connections} connections`);
    const reads = await measure(context, { url: `${base}/api/products/slug/${slug}` });
    context.log(`  ${describe(reads.measured)}`);
    // The same read with the products service's catalogue cache missed on purpose: the cache is keyed
    // by URL, so a query string of its own per request makes every read go to the database.
    const uncached = await measure(context, uncachedReads(base, slug));
    context.log(`uncached reads (a query string per request)\n  ${describe(uncached.measured)}`);

    const orders = await measureWithCpu(context, {
      url: `${base}/api/orders`,
      requests: orderRequests(buyers, products),
    });
    context.log(
      `orders: POST /api/orders, ${buyerCount} buyers\n  ${describe(orders.measured)}\n  CPU per order: ${describeCpu(orders.cpu)}`,
    );

    // Every order answered 201 must be stored once: a fast run that loses orders is no result. The load
    // generator stops each phase with one request per connection possibly in flight; the service may
    // still complete those, so up to that many more are stored than were answered, never fewer.
    const stored = (await storedOrders(base, admin)) - before;
    const answered = orders.warmUp.ok + orders.measured.ok;
    const cutOffInFlight = orders.phases * context.connections;
    const unaccounted =
      stored < answered ? answered - stored : Math.max(0, stored - answered - cutOffInFlight);
    const failures = orders.measured.failures + orders.warmUp.failures + unaccounted;

    const found = figure({
      id: 'orders.place-vs-read',
      section: 'orders',
      measured: {
        what: `POST /api/orders through the gateway, ${buyerCount} buyers, distinct products`,
        value: orders.measured.rate,
        unit: 'orders/s',
      },
      reference: {
        what: `GET /api/products/slug/:slug (one product) through the gateway, ${context.connections} connections`,
        value: reads.measured.rate,
        unit: 'req/s',
      },
      better: 'higher',
      // The hot paths' goal.
      target: 0.3,
      notes:
        `orders: ${describe(orders.measured)}; reads: ${describe(reads.measured)}; ` +
        `${stored} orders stored for ${answered} answered 201 (warm-up included; up to ${cutOffInFlight} ` +
        'more may be stored: the requests in flight when a phase stops); ' +
        `${WARM_UP_S} s untimed warm-up before each phase; CPU per order by part (the measured phase in two ` +
        `halves, ± their spread): ${describeCpu(orders.cpu)}` +
        (failures > 0 ? `; FAILED: ${failures} failed or unstored orders` : ''),
      ...orders.cpu,
    });
    const againstUncached = figure({
      id: 'orders.place-vs-uncached-read',
      section: 'orders',
      measured: found.measured,
      reference: {
        what: `GET /api/products/slug/:slug?miss=<n> (one product, every read a cache miss) through the gateway, ${context.connections} connections`,
        value: uncached.measured.rate,
        unit: 'req/s',
      },
      better: 'higher',
      target: 0.25,
      notes: `uncached reads: ${describe(uncached.measured)}; the figure compared is orders.place-vs-read`,
    });
    const againstGoal = goalFigure({
      id: 'orders.cpu-per-order',
      section: 'orders',
      measured: {
        what: `CPU per order placed through the gateway, every part, ${buyerCount} buyers`,
        value: Object.values(orders.cpu.cpuUs).reduce((sum, us) => sum + us, 0),
        unit: 'µs',
      },
      goal: { value: CPU_PER_ORDER_GOAL_US },
      better: 'lower',
      notes:
        `the parts of orders.place-vs-read's phase summed: ${describeCpu(orders.cpu)}. The load generator ` +
        "runs in the gateway's process and is counted with it, so the sum is an upper bound",
    });
    const clean = failures === 0 && uncached.measured.failures === 0;
    return [
      { ...found, pass: found.pass && failures === 0 },
      { ...againstUncached, pass: againstUncached.pass && clean },
      againstGoal,
    ];
  },
};
