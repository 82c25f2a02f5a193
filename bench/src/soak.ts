// `npm run soak [minutes]` (default 10): the whole shop under mixed traffic through the gateway, shoppers
// (browse, search, product pages, fresh stock for the cart, orders, receipt uploads, their history) and
// an admin (edits, mark paid, delivered, lists). It reports requests, errors by status, p50/p99 per
// route and each service's memory over time, writes bench/out/soak-report.md and .json, and fails on
// any 5xx or dropped request, or on a service whose memory grew more than 10 % after warm-up. A failed
// run lists its first server errors with their request ids and keeps the parts' logs to look them up.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Order, Product, UserInfo } from '@shop/contracts';
import { solidPng } from '@shop/testing';
import { REPO_ROOT, addressLimitsRaisedTo, startStack } from '@shop/dev-stack';
import { call, callThrough, pause, pick, routes } from './lib/soak-calls.js';
import { type MemorySample, rssMb, summarize } from './lib/soak-report.js';

const MINUTES = Number(process.argv[2] ?? process.env['SOAK_MINUTES'] ?? 10);
const SHOPPERS = Number(process.env['SOAK_SHOPPERS'] ?? 8);
const MEMORY_SAMPLE_MS = 10_000;

if (!Number.isFinite(MINUTES) || MINUTES <= 0) {
  console.error(`usage: npm run soak [minutes]   (got "${process.argv[2]}")`);
  process.exit(2);
}

const RECEIPT = solidPng({ width: 32, height: 32, rgba: [20, 120, 60, 255] });

/** One shopper's session after session: browse, search, look, order now and then, pay some orders. */
async function shopper(user: UserInfo, products: Product[], until: number): Promise<void> {
  const words = ['glock', 'holster', 'sight', '9mm', 'case'];
  while (Date.now() < until) {
    const product = pick(products);
    const roll = Math.random();
    if (roll < 0.2) await call('GET /api/products', '/api/products');
    else if (roll < 0.3)
      await call('GET /api/products?query', `/api/products?query=${pick(words)}&page=1&pageSize=12`);
    else if (roll < 0.38) await call('GET /api/products/facets', `/api/products/facets?query=${pick(words)}`);
    else if (roll < 0.5) await call('GET /api/products/slug/:slug', `/api/products/slug/${product.slug}`);
    else if (roll < 0.58) await call('GET /api/products/categories', '/api/products/categories');
    else if (roll < 0.68)
      await call('GET /api/products/:id', `/api/products/${product._id}`, { token: user.token });
    else if (roll < 0.74)
      await call('GET /api/orders/mine', '/api/orders/mine?page=1&limit=10', { token: user.token });
    else if (roll < 0.78) await call('GET /api/data/all-data', '/api/data/all-data');
    else if (roll < 0.82)
      await call('GET /api/wallet/all-wallets', '/api/wallet/all-wallets', { token: user.token });
    else {
      const placed = await call<Order>('POST /api/orders', '/api/orders', {
        method: 'POST',
        token: user.token,
        headers: { 'Idempotency-Key': crypto.randomUUID() },
        json: {
          orderItems: [{ _id: product._id, quantity: 1 + Math.floor(Math.random() * 2) }],
          shippingAddress: {
            fullName: user.name,
            address: '1 Soak Street',
            city: 'Fresno',
            country: 'United States',
            phoneNumber: '+1 555 0100',
          },
          paymentMethod: pick(['bitcoin', 'apple Pay', 'cashapp']),
        },
      });
      if (placed.status === 201 && placed.body && Math.random() < 0.6) {
        await call('GET /api/orders/:id', `/api/orders/${placed.body._id}`, { token: user.token });
        const form = new FormData();
        form.append('file', new Blob([RECEIPT], { type: 'image/png' }), 'receipt.png');
        const uploaded = await call<{ url: string }>('POST /api/media', '/api/media', {
          method: 'POST',
          token: user.token,
          form,
        });
        if (uploaded.status === 201 && uploaded.body) {
          await call('GET /api/media/:id/:name', uploaded.body.url);
          await call('PUT /api/orders/:id/pay', `/api/orders/${placed.body._id}/pay`, {
            method: 'PUT',
            token: user.token,
            json: { orderId: placed.body._id, receiptUrl: uploaded.body.url },
          });
        }
      }
    }
    await pause(20 + Math.random() * 60);
  }
}

/** The first order of an admin's list (`filter`), moved on by `PUT /api/orders/<action>/:id`. */
async function moveOnFirstOrder(user: UserInfo, filter: string, action: 'markpaid' | 'delivered') {
  const listed = await call<Order[]>('GET /api/orders?status', `/api/orders?${filter}&page=1&limit=10`, {
    token: user.token,
  });
  const order = listed.body?.[0];
  if (order)
    await call(`PUT /api/orders/${action}/:id`, `/api/orders/${action}/${order._id}`, {
      method: 'PUT',
      token: user.token,
    });
}

/** The admin: lists, confirms payments, delivers, edits a product now and then. */
async function admin(user: UserInfo, products: Product[], until: number): Promise<void> {
  while (Date.now() < until) {
    const roll = Math.random();
    if (roll < 0.35) await moveOnFirstOrder(user, 'status=Pending', 'markpaid');
    else if (roll < 0.6) await moveOnFirstOrder(user, 'status=Paid&delivered=false', 'delivered');
    else if (roll < 0.75) {
      const product = pick(products);
      await call('POST /api/products/update/:id', `/api/products/update/${product._id}`, {
        method: 'POST',
        token: user.token,
        json: {
          name: product.name,
          slug: product.slug,
          image: product.image,
          brand: product.brand,
          category: product.category,
          description: `${product.description.split(' (edited')[0]} (edited ${new Date().toISOString()})`,
          price: Math.round((product.price + (Math.random() < 0.5 ? -1 : 1)) * 100) / 100,
          countInStock: product.countInStock,
        },
      });
    } else if (roll < 0.9) {
      await call('GET /api/orders', '/api/orders?page=1&limit=20', { token: user.token });
    } else {
      await call('GET /api/users/all-users', '/api/users/all-users?page=1&limit=20', { token: user.token });
    }
    await pause(100 + Math.random() * 200);
  }
}

async function setUp() {
  const signIn = await call<UserInfo>('setup', '/api/users/signin', {
    method: 'POST',
    json: { email: 'admin@shop.local', password: 'admin-password-123' },
  });
  if (!signIn.body?.token) throw new Error(`admin sign-in failed (${signIn.status})`);
  const adminUser = signIn.body;
  const shoppers: UserInfo[] = [];
  for (let i = 0; i < SHOPPERS; i += 1) {
    const signUp = await call<UserInfo>('setup', '/api/users/signup', {
      method: 'POST',
      json: {
        name: `Soak Shopper ${i + 1}`,
        email: `soak-${Date.now()}-${i}@example.com`,
        password: 'correct-horse-battery',
      },
    });
    if (!signUp.body?.token) throw new Error(`sign-up failed (${signUp.status})`);
    shoppers.push(signUp.body);
  }
  // Products of the soak's own, with stock enough for the whole run: the demo catalogue stays as it is.
  const demo = (await call<Product[]>('setup', '/api/products')).body ?? [];
  const products: Product[] = [];
  for (let i = 0; i < 6; i += 1) {
    const created = await call<Product>('setup', '/api/listings/create', {
      method: 'POST',
      token: adminUser.token,
      json: {
        name: `Soak Product ${i + 1} ${Date.now()}`,
        slug: '',
        image: [demo[i % demo.length]!.image[0]],
        brand: pick(['Glock', 'Sig Sauer', 'Smith & Wesson']),
        category: pick(['Pistols', 'Accessories']),
        description: 'A product of the soak test, bought again and again',
        price: 100 + i * 37.5,
        countInStock: 1_000_000,
      },
    });
    if (!created.body?._id) throw new Error(`listing failed (${created.status})`);
    products.push(created.body);
  }
  routes.delete('setup');
  return { adminUser, shoppers, products };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'shop-soak-'));
  console.log(`Soak: ${MINUTES} min, ${SHOPPERS} shoppers and one admin through the gateway.`);
  console.log(
    'Starting the shop (gateway and per-address limits raised for one machine that is every client)...',
  );
  const stack = await startStack({
    ports: 'free',
    dataDir,
    rateLimitFactor: 10_000,
    serviceEnv: {
      ...addressLimitsRaisedTo(100_000),
      UPLOADS_PER_WINDOW: '100000',
      LOG_LEVEL: 'warn',
    },
  });
  callThrough(stack.url);
  // Every copy of every service (SHOP_REPLICAS may ask for more than one).
  const instances = stack.instances.map((instance) => instance.name);
  const memory: MemorySample[] = [];
  const startedAt = Date.now();
  let failed = false;
  try {
    const { adminUser, shoppers, products } = await setUp();
    const until = Date.now() + MINUTES * 60_000;
    const sample = () => {
      const row: MemorySample = { atS: Math.round((Date.now() - startedAt) / 1000) };
      for (const name of instances) row[name] = rssMb(stack.pidOf(name));
      memory.push(row);
    };
    sample();
    const sampler = setInterval(() => {
      sample();
      const total = [...routes.values()].reduce((sum, stats) => sum + stats.latencies.length, 0);
      console.log(`  ${memory.at(-1)!.atS} s: ${total} requests`);
    }, MEMORY_SAMPLE_MS);
    await Promise.all([
      ...shoppers.map((user) => shopper(user, products, until)),
      admin(adminUser, products, until),
    ]);
    clearInterval(sampler);
    sample();

    const natsNodes = stack.natsUrl.split(',').length;
    const report = summarize(memory, {
      minutes: MINUTES,
      shoppers: SHOPPERS,
      instances,
      stack:
        `${natsNodes === 1 ? 'one NATS server' : `${natsNodes} NATS nodes clustered`}; ` +
        (stack.observability
          ? 'every span exported to Jaeger, metrics scraped by VictoriaMetrics'
          : 'no trace exporter, no metrics store'),
    });
    failed = report.failures.length > 0;
    mkdirSync(join(REPO_ROOT, 'bench', 'out'), { recursive: true });
    writeFileSync(
      join(REPO_ROOT, 'bench', 'out', 'soak-report.json'),
      `${JSON.stringify(report.json, null, 2)}\n`,
    );
    writeFileSync(join(REPO_ROOT, 'bench', 'out', 'soak-report.md'), report.markdown);
    console.log(`\n${report.markdown}`);
  } catch (error) {
    failed = true;
    throw error;
  } finally {
    await stack.stop();
    // A failed run keeps its parts' logs, so each server error can be found by its request id.
    if (failed) console.log(`\nThe parts' logs are kept in ${stack.logDir}`);
    else rmSync(dataDir, { recursive: true, force: true });
  }
  process.exit(failed ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
