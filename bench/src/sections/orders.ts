// docs/performance.md, "Orders": placing orders for distinct products with 32 concurrent buyers through the
// gateway, against reading one product by slug through the gateway in the same run with as many connections.
// Setup (buyers signed up, products listed by the admin) is not timed. Any answer but 201 to an order, or a
// connection error, fails the figure: a refusal is not a fast order.
import { type BenchContext, type BenchSection, type Figure, figure, goalFigure } from '../lib/figure.js';
import { WARM_UP_S, describe, describeCpu, measure, measureWithCpu } from '../lib/load-phases.js';
import {
  PRODUCTS_PER_BUYER,
  orderRequests,
  setUp,
  storedOrders,
  uncachedReads,
} from '../lib/order-traffic.js';

/** CPU per order across every part (docs/performance.md, "The hot paths' goals"; about 10 ms when it was set). */
const CPU_PER_ORDER_GOAL_US = 4_000;

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

    // Each half's CPU runs until the work its orders set going is done (lib/load-phases.ts, `drain`).
    const orders = await measureWithCpu(
      context,
      { url: `${base}/api/orders`, requests: orderRequests(buyers, products) },
      context.stack,
      { drain: true },
    );
    const drainedS = orders.drainedMs.map((ms) => (ms / 1000).toFixed(1)).join(' and ');
    context.log(
      `orders: POST /api/orders, ${buyerCount} buyers\n  ${describe(orders.measured)}\n  CPU per order: ${describeCpu(orders.cpu)}\n  work left behind by each half done after ${drainedS} s`,
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
        `halves, each until the work its orders set going was done, ${drainedS} s, less the idle rates; ` +
        `± their spread): ${describeCpu(orders.cpu)}` +
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
