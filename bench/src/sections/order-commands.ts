// docs/performance.md, "Orders": what one order makes every part do, counted from its trace. Orders are
// placed one at a time through the gateway of a stack that exports every span to Jaeger, each under a
// traceparent of the bench's own; once the work an order sets off after its answer (the outbox relay,
// the consumers of order.created) has had time to finish, each order's trace is read back from Jaeger
// and its spans counted by service: database commands (the MongoDB driver's spans), NATS messages and
// all spans. Counts, not times: they do not depend on the machine, and a change that adds a round trip
// to the path shows here as one more command per order.
import { randomBytes, randomUUID } from 'node:crypto';
import type { RunningStack } from '@shop/dev-stack';
import { type BenchContext, type BenchSection, type Figure, figure } from '../lib/figure.js';
import { orderBody, setUp } from '../lib/order-traffic.js';

const ORDERS = 20;
/** How long the work an order sets off after its answer is given to end before the traces are read. */
const SETTLE_MS = 5_000;

interface JaegerSpan {
  spanID: string;
  operationName: string;
  processID: string;
  tags: { key: string; value: unknown }[];
}

interface JaegerTrace {
  spans: JaegerSpan[];
  processes: Record<string, { serviceName: string }>;
}

/** Per order, by service: database commands, NATS spans, all spans. */
interface Counts {
  db: Record<string, number>;
  dbOperations: Record<string, number>;
  nats: Record<string, number>;
  spans: Record<string, number>;
}

const tag = (span: JaegerSpan, key: string) => span.tags.find((each) => each.key === key)?.value;
const add = (counts: Record<string, number>, key: string, by = 1) => {
  counts[key] = (counts[key] ?? 0) + by;
};

async function traceOf(jaegerUrl: string, traceId: string): Promise<JaegerTrace | undefined> {
  const response = await fetch(`${jaegerUrl}/api/traces/${traceId}`);
  if (!response.ok) return undefined;
  const body = (await response.json()) as { data?: JaegerTrace[] };
  return body.data?.[0];
}

function countSpans(trace: JaegerTrace, into: Counts): void {
  for (const span of trace.spans) {
    const service = trace.processes[span.processID]?.serviceName ?? 'unknown';
    add(into.spans, service);
    // The driver's instrumentation names the system by the old or the stable semantic conventions.
    if (tag(span, 'db.system') === 'mongodb' || tag(span, 'db.system.name') === 'mongodb') {
      const operation = tag(span, 'db.operation.name') ?? tag(span, 'db.operation') ?? span.operationName;
      add(into.db, service);
      add(into.dbOperations, `${service} ${String(operation)}`);
    }
    if (tag(span, 'messaging.system') === 'nats') add(into.nats, service);
  }
}

const perOrder = (counts: Record<string, number>) =>
  Object.entries(counts)
    .sort(([, a], [, b]) => b - a)
    .map(([key, count]) => `${key} ${(count / ORDERS).toFixed(1)}`)
    .join(', ');
const total = (counts: Record<string, number>) => Object.values(counts).reduce((sum, each) => sum + each, 0);

export const orderCommandsSection: BenchSection = {
  name: 'order-commands',
  async run(context: BenchContext): Promise<Figure[]> {
    context.log('starting a stack with Jaeger, every part exporting every span...');
    const stack = await context.startStack({ observability: true });
    try {
      return await countOrders(context, stack);
    } finally {
      await stack.stop();
    }
  },
};

async function countOrders(context: BenchContext, stack: RunningStack): Promise<Figure[]> {
  const jaegerUrl = stack.observability?.jaegerUrl;
  if (!jaegerUrl) throw new Error('the stack runs no Jaeger');
  await stack.observability!.running;
  const { buyers, products } = await setUp(stack.url, 4);
  const traceIds: string[] = [];
  for (let n = 0; n < ORDERS; n += 1) {
    const traceId = randomBytes(16).toString('hex');
    const buyer = buyers[n % buyers.length]!;
    const response = await fetch(`${stack.url}/api/orders`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Bearer ${buyer.token}`,
        'Idempotency-Key': randomUUID(),
        traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01`,
      },
      body: orderBody(buyer, products[n % products.length]!),
    });
    if (response.status !== 201)
      throw new Error(`an order answered ${response.status}: ${await response.text()}`);
    traceIds.push(traceId);
  }
  context.log(`${ORDERS} orders placed; letting what they set off finish (${SETTLE_MS / 1000} s)...`);
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

  const counts: Counts = { db: {}, dbOperations: {}, nats: {}, spans: {} };
  for (const traceId of traceIds) {
    const trace = await traceOf(jaegerUrl, traceId);
    if (!trace) throw new Error(`Jaeger has no trace ${traceId}`);
    countSpans(trace, counts);
  }
  const dbPerOrder = total(counts.db) / ORDERS;
  context.log(`database commands per order: ${dbPerOrder.toFixed(1)} (${perOrder(counts.db)})`);
  context.log(`  by operation: ${perOrder(counts.dbOperations)}`);
  context.log(
    `NATS spans per order: ${perOrder(counts.nats)}; all spans per order: ${perOrder(counts.spans)}`,
  );

  return [
    figure({
      id: 'order-commands.db-commands',
      section: 'orders',
      measured: {
        what: 'database commands per order, every part (from its trace)',
        value: dbPerOrder,
        unit: 'commands',
      },
      reference: {
        what: 'the one write an order needs at the least (storing it)',
        value: 1,
        unit: 'commands',
      },
      better: 'lower',
      target: 1,
      reportOnly: true,
      notes: `${ORDERS} orders placed one at a time through the gateway, each trace read from Jaeger ${SETTLE_MS / 1000} s later. Database commands (MongoDB driver spans) per order by service: ${perOrder(counts.db)}; by operation: ${perOrder(counts.dbOperations)}. NATS spans per order: ${perOrder(counts.nats)}. All spans per order: ${perOrder(counts.spans)} (${(total(counts.spans) / ORDERS).toFixed(1)} in all).`,
    }),
  ];
}
