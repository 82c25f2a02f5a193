// docs/performance.md, "Order export": the admin's CSV export of 100,000 orders, streamed from the database
// through the orders service and the gateway, against an export of a tenth of them in the same run. What it
// shows is the memory the export holds in the orders process: its live heap (what survives a full
// collection, read through the process's inspector every SAMPLE_MS) at its peak during the export, over
// what it was just before. It must not grow with the number of orders (one cursor batch at a time), so
// the ratio of the two peaks is the figure. Resident memory is in the notes: V8 lets the heap fill with
// garbage towards its cap before it collects, so that peak grows with the rows read, not with what is
// held. The stack is its own, every service's heap capped as a pod's memory would cap it (HEAP_MB).
// Setup (the orders written straight into the orders database, as placed orders are stored) is not timed.
import { readFileSync } from 'node:fs';
import { NEW_ORDER_STATE, type UserInfo } from '@shop/contracts';
import { MongoClient, ObjectId } from 'mongodb';
import { type BenchContext, type BenchSection, type Figure, figure } from '../lib/figure.js';

const ORDERS = 100_000;
/** Every tenth order carries this name: `?q=` of it exports 10,000. */
const TENTH = 'Bench Tenth';
const INSERT_BATCH = 2_000;
const SAMPLE_MS = 20;
/** How often the live heap is read: each read is a full collection in the orders process. */
const LIVE_SAMPLE_MS = 250;
/** Where Node opens its inspector on SIGUSR1. */
const INSPECTOR = 'http://127.0.0.1:9229';
/** The services' old-space cap: what a pod of the orders unit, 192 MiB requested, would give Node. */
const HEAP_MB = 128;

/** The resident memory of a process now, in bytes (Linux). */
function residentBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB$/m);
  if (!line) throw new Error(`no VmRSS for process ${pid}`);
  return Number(line[1]) * 1024;
}

/** The live heap of a Node process, through its inspector: a full collection, then the heap still used. */
interface LiveHeap {
  bytes(): Promise<number>;
  close(): void;
}

/** Opens the inspector of process `pid` (SIGUSR1: Node listens on 127.0.0.1:9229) and connects to it. */
async function liveHeapOf(pid: number): Promise<LiveHeap> {
  process.kill(pid, 'SIGUSR1');
  let target: string | undefined;
  for (let tries = 0; tries < 50 && !target; tries += 1) {
    const listed = await fetch(`${INSPECTOR}/json/list`).then(
      (response) => response.json() as Promise<{ webSocketDebuggerUrl: string }[]>,
      () => undefined,
    );
    target = listed?.[0]?.webSocketDebuggerUrl;
    if (!target) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!target) throw new Error(`process ${pid} opened no inspector at ${INSPECTOR}`);
  const socket = new WebSocket(target);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', reject, { once: true });
  });
  const waiting = new Map<number, (result: Record<string, unknown>) => void>();
  socket.addEventListener('message', (message) => {
    const reply = JSON.parse(String(message.data)) as { id?: number; result?: Record<string, unknown> };
    if (reply.id !== undefined) waiting.get(reply.id)?.(reply.result ?? {});
  });
  let next = 0;
  const send = (method: string) =>
    new Promise<Record<string, unknown>>((resolve) => {
      next += 1;
      waiting.set(next, resolve);
      socket.send(JSON.stringify({ id: next, method }));
    });
  return {
    async bytes() {
      await send('HeapProfiler.collectGarbage');
      return (await send('Runtime.getHeapUsage'))['usedSize'] as number;
    },
    close: () => socket.close(),
  };
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
  /** Its peak live heap (after a full collection) during the export, over the same just before, MB. */
  liveGrowthMb: number;
  /** Live heap reads during the export. */
  liveSamples: number;
}

/** Reads the whole export as a spreadsheet download would, sampling the orders process's memory. */
async function exportOnce(
  base: string,
  admin: UserInfo,
  query: string,
  pid: number,
  heap: LiveHeap,
): Promise<Export> {
  const liveBefore = await heap.bytes();
  const before = residentBytes(pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, residentBytes(pid));
  }, SAMPLE_MS);
  let livePeak = liveBefore;
  let liveSamples = 0;
  let exporting = true;
  const liveSampler = (async () => {
    while (exporting) {
      livePeak = Math.max(livePeak, await heap.bytes());
      liveSamples += 1;
      await new Promise((resolve) => setTimeout(resolve, LIVE_SAMPLE_MS));
    }
  })();
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
      liveGrowthMb: (livePeak - liveBefore) / 2 ** 20,
      liveSamples,
    };
  } finally {
    clearInterval(sampler);
    exporting = false;
    await liveSampler;
  }
}

const describe = (run: Export) =>
  `${run.rows} rows, ${(run.bytes / 2 ** 20).toFixed(1)} MB in ${(run.ms / 1000).toFixed(1)} s, orders process live heap +${run.liveGrowthMb.toFixed(1)} MB at its peak (${run.liveSamples} reads), resident memory +${run.peakGrowthMb.toFixed(1)} MB`;

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

  const heap = await liveHeapOf(pid);
  let tenth: Export;
  let all: Export;
  try {
    tenth = await exportOnce(base, admin, `?q=${encodeURIComponent(TENTH)}`, pid, heap);
    context.log(`a tenth (?q=${TENTH}): ${describe(tenth)}`);
    all = await exportOnce(base, admin, '', pid, heap);
    context.log(`all: ${describe(all)}`);
  } finally {
    heap.close();
  }
  if (all.rows < ORDERS || tenth.rows < ORDERS / 10) {
    throw new Error(`the exports held ${all.rows} and ${tenth.rows} rows, fewer than the orders written`);
  }

  return [
    figure({
      id: 'order-export.memory',
      section: 'order export',
      measured: {
        what: `orders process live heap growth while exporting ${all.rows} orders as CSV`,
        value: all.liveGrowthMb,
        unit: 'MB',
      },
      reference: {
        what: `the same while exporting ${tenth.rows}`,
        value: Math.max(tenth.liveGrowthMb, 1),
        unit: 'MB',
      },
      better: 'lower',
      // Ten times the orders within 1.5 times the memory: the export holds a batch, not the result.
      target: 1.5,
      notes: `${describe(all)}; the tenth: ${describe(tenth)}. Live heap: the heap in use after a full collection (the orders process's inspector, every ${LIVE_SAMPLE_MS} ms), at its peak during the export over the same just before; resident memory (VmRSS, every ${SAMPLE_MS} ms) likewise. Every service's heap capped at ${HEAP_MB} MB (--max-old-space-size); a reference under 1 MB counts as 1 MB.`,
    }),
  ];
}
