// docs/performance.md, "Order export": the admin's CSV export of 100,000 orders, streamed from the database
// through the orders service and the gateway, against an export of a tenth of them in the same run. What it
// shows is the memory the orders process takes on top of what it held before the export: it must not grow
// with the number of orders (one cursor batch at a time), so the ratio of the two peaks is the figure.
// The stack is its own, every service's heap capped as a pod's memory would cap it (HEAP_MB): without a
// cap V8 lets its heap grow with the garbage an export makes (+350 MB of resident memory for 100,000
// rows, all of it garbage), which says nothing of what the export holds. Under the cap an export that
// held the orders (some 300 MB of them) would fail; one that holds a batch runs in the same memory for
// ten times the rows. Setup (the orders written straight into the orders database, as placed orders are
// stored) is not timed.
import { readFileSync } from 'node:fs';
import { NEW_ORDER_STATE, type UserInfo } from '@shop/contracts';
import { MongoClient, ObjectId } from 'mongodb';
import { type BenchContext, type BenchSection, type Figure, figure } from '../lib/figure.js';

const ORDERS = 100_000;
/** Every tenth order carries this name: `?q=` of it exports 10,000. */
const TENTH = 'Bench Tenth';
const INSERT_BATCH = 2_000;
const SAMPLE_MS = 20;
/** The services' old-space cap: what a pod of the orders unit, 192 MiB requested, would give Node. */
const HEAP_MB = 128;

/** The resident memory of a process now, in bytes (Linux). */
function residentBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB$/m);
  if (!line) throw new Error(`no VmRSS for process ${pid}`);
  return Number(line[1]) * 1024;
}

/** A stored order as the orders service writes one at checkout. */
function storedOrder(index: number, placedAt: Date) {
  const quantity = 1 + (index % 3);
  const price = 19.99 + (index % 50);
  const itemsPrice = Math.round(price * quantity * 100) / 100;
  return {
    _id: new ObjectId(),
    user: new ObjectId().toHexString(),
    orderItems: [
      { _id: new ObjectId().toHexString(), name: `Bench product ${index % 500}`, quantity, price, image: '' },
    ],
    shippingAddress: {
      fullName: index % 10 === 0 ? `${TENTH} ${index}` : `Bench Buyer ${index}`,
      address: `${index} Export Street, Flat "${index % 7}"`,
      city: 'Benchtown',
      country: 'United Kingdom',
      phoneNumber: '+44 20 7946 0958',
    },
    paymentMethod: 'cashapp',
    itemsPrice,
    taxPrice: 0,
    discount: 0,
    shippingPrice: 0,
    totalPrice: itemsPrice,
    ...NEW_ORDER_STATE,
    deletedAt: null,
    stockRelease: 'none',
    createdAt: placedAt,
    updatedAt: placedAt,
  };
}

interface Export {
  rows: number;
  bytes: number;
  ms: number;
  /** The orders process's peak resident memory during the export, over what it held before, MB. */
  peakGrowthMb: number;
}

/** Reads the whole export as a spreadsheet download would, sampling the orders process's memory. */
async function exportOnce(base: string, admin: UserInfo, query: string, pid: number): Promise<Export> {
  global.gc?.();
  const before = residentBytes(pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, residentBytes(pid));
  }, SAMPLE_MS);
  const started = performance.now();
  try {
    const response = await fetch(`${base}/api/orders/export${query}`, {
      headers: { Authorization: `Bearer ${admin.token}`, 'Accept-Encoding': 'identity' },
    });
    if (response.status !== 200 || !response.body) throw new Error(`the export answered ${response.status}`);
    let bytes = 0;
    let lineEnds = 0;
    for await (const chunk of response.body) {
      bytes += chunk.byteLength;
      for (let i = 0; i < chunk.length; i += 1) if (chunk[i] === 0x0a) lineEnds += 1;
    }
    return {
      // Quoted addresses hold no line break here: one per row, the header's among them.
      rows: lineEnds - 1,
      bytes,
      ms: performance.now() - started,
      peakGrowthMb: (Math.max(peak, residentBytes(pid)) - before) / 2 ** 20,
    };
  } finally {
    clearInterval(sampler);
  }
}

const describe = (run: Export) =>
  `${run.rows} rows, ${(run.bytes / 2 ** 20).toFixed(1)} MB in ${(run.ms / 1000).toFixed(1)} s, orders process +${run.peakGrowthMb.toFixed(1)} MB at its peak`;

export const orderExportSection: BenchSection = {
  name: 'order-export',
  async run(context: BenchContext): Promise<Figure[]> {
    // mongo-java-server collects the whole result of a query without a limit in its heap before it
    // answers the first batch (MongoDB streams it): 100,000 orders need more than its default 512 MB.
    const javaOpts = process.env['SHOP_MONGO_JAVA_OPTS'];
    process.env['SHOP_MONGO_JAVA_OPTS'] = '-Xmx2g -XX:+UseSerialGC';
    const stack = await context
      .startStack({ serviceEnv: { NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}` } })
      .finally(() => {
        if (javaOpts === undefined) delete process.env['SHOP_MONGO_JAVA_OPTS'];
        else process.env['SHOP_MONGO_JAVA_OPTS'] = javaOpts;
      });
    try {
      return await exportFigures(context, stack);
    } finally {
      await stack.stop();
    }
  },
};

async function exportFigures(context: BenchContext, stack: BenchContext['stack']): Promise<Figure[]> {
  const base = stack.url;
  const pid = stack.pidOf('orders');
  if (pid === undefined) throw new Error('the orders service is not running');
  const signIn = await fetch(`${base}/api/users/signin`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'admin@shop.local', password: 'admin-password-123' }),
  });
  const admin = (await signIn.json()) as UserInfo;

  context.log(`writing ${ORDERS} orders into the orders database (not timed)...`);
  const mongo = await MongoClient.connect(`mongodb://127.0.0.1:${stack.ports.mongo}`);
  try {
    const orders = mongo.db('orders').collection('orders');
    const start = Date.now() - ORDERS * 1000;
    for (let first = 0; first < ORDERS; first += INSERT_BATCH) {
      const batch = Array.from({ length: Math.min(INSERT_BATCH, ORDERS - first) }, (_, offset) =>
        storedOrder(first + offset, new Date(start + (first + offset) * 1000)),
      );
      await orders.insertMany(batch, { ordered: false });
    }
  } finally {
    await mongo.close();
  }

  const tenth = await exportOnce(base, admin, `?q=${encodeURIComponent(TENTH)}`, pid);
  context.log(`a tenth (?q=${TENTH}): ${describe(tenth)}`);
  const all = await exportOnce(base, admin, '', pid);
  context.log(`all: ${describe(all)}`);
  if (all.rows < ORDERS || tenth.rows < ORDERS / 10) {
    throw new Error(`the exports held ${all.rows} and ${tenth.rows} rows, fewer than the orders written`);
  }

  return [
    figure({
      id: 'order-export.memory',
      section: 'order export',
      measured: {
        what: `orders process memory while exporting ${all.rows} orders as CSV`,
        value: all.peakGrowthMb,
        unit: 'MB',
      },
      reference: {
        what: `the same while exporting ${tenth.rows}`,
        value: Math.max(tenth.peakGrowthMb, 1),
        unit: 'MB',
      },
      better: 'lower',
      // Ten times the orders within 1.5 times the memory: the export holds a batch, not the result.
      target: 1.5,
      notes: `${describe(all)}; the tenth: ${describe(tenth)}. Growth of the orders process's resident memory (VmRSS, sampled every ${SAMPLE_MS} ms) over its size just before each export, every service's heap capped at ${HEAP_MB} MB (--max-old-space-size); a reference under 1 MB counts as 1 MB.`,
    }),
  ];
}
