// The AsyncAPI documents (services/<name>/asyncapi.yaml) against the AsyncAPI tooling, the code and the
// TypeScript types of the messages. No service runs: the browser tests check messages on the wire
// (e2e/tests/fuzz.spec.ts).
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Parser } from '@asyncapi/parser';
import {
  ADMIN_ACTION,
  type AdminActionEvent,
  COMMAND_SCHEMA_VERSIONS,
  EVENT_SCHEMA_VERSIONS,
  MEDIA_STORE_SEED_IMAGE,
  ORDER_CREATED,
  ORDER_CANCELLED,
  ORDER_DELETED,
  ORDER_DELIVERED,
  ORDER_PAID,
  ORDER_REFUNDED,
  LOW_STOCK_THRESHOLD_UPDATED,
  PRODUCT_LOW_STOCK,
  PRODUCTS_RELEASE,
  PRODUCTS_RESERVE,
  PRODUCT_DELETED,
  PRODUCT_UPDATED,
  SETTINGS_UPDATED,
  USER_DELETED,
  USER_PASSWORD_RESET,
  USER_PROMOTED,
  WALLET_UPDATED,
  eventSubject,
  type EventEnvelope,
  type OrderCreatedEvent,
  type OrderCancelledEvent,
  type OrderDeletedEvent,
  type OrderDeliveredEvent,
  type OrderPaidEvent,
  type OrderRefundedEvent,
  type LowStockThresholdUpdatedEvent,
  type ProductLowStockEvent,
  type ProductDeletedEvent,
  type ProductUpdatedEvent,
  type ReleaseStockReply,
  type ReleaseStockRequest,
  type ReserveStockReply,
  type ReserveStockRequest,
  type SettingsUpdatedEvent,
  type StoreSeedImageReply,
  type StoreSeedImageRequest,
  type UserDeletedEvent,
  type UserPasswordResetEvent,
  type UserPromotedEvent,
  type WalletUpdatedEvent,
} from '@shop/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { asyncApiPath, documentDrift, expectedDocuments, natsMessageChecker } from './asyncapi.js';
import { NATS_PARTS, SERVICES, partPlace, repoRoot, scanNatsUse } from './nats-use.js';

const scratch = mkdtempSync(join(tmpdir(), 'asyncapi-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The sources and documents of every part that speaks NATS, in a scratch folder a test may change. */
function copyOfTheCode(): string {
  const root = mkdtempSync(join(scratch, 'repo-'));
  cpSync(join(repoRoot, 'libs', 'service-kit', 'src'), join(root, 'libs', 'service-kit', 'src'), {
    recursive: true,
  });
  for (const part of NATS_PARTS) {
    const { dir, source } = partPlace(part);
    for (const path of [source, join(dir, 'package.json'), join(dir, 'asyncapi.yaml')])
      cpSync(join(repoRoot, path), join(root, path), { recursive: true });
  }
  return root;
}

describe('the AsyncAPI documents', () => {
  it.each(NATS_PARTS)('%s: the AsyncAPI parser finds no error or warning', async (service) => {
    const text = readFileSync(asyncApiPath(service), 'utf8');
    const { document, diagnostics } = await new Parser().parse(text);
    // 0 error, 1 warning, 2 information, 3 hint
    const problems = diagnostics.filter((diagnostic) => diagnostic.severity <= 1);
    expect(problems.map((p) => `${p.path.join('/')}: ${p.message}`)).toEqual([]);
    expect(document?.version()).toBe('3.0.0');
  });

  it('the parser refuses a document that is not AsyncAPI 3 (an operation without its channel)', async () => {
    const text = readFileSync(asyncApiPath('orders'), 'utf8').replace(
      /(\n {2}publishOrderCreated:\n {4}action: send\n) {4}channel:\n {6}\$ref: '#\/channels\/orderCreated'\n/,
      '$1',
    );
    const { diagnostics } = await new Parser().parse(text);
    expect(diagnostics.filter((diagnostic) => diagnostic.severity === 0).length).toBeGreaterThan(0);
  });

  it('each is exactly what the code and the schemas in @shop/contracts say (npx tsx tools/contracts/asyncapi.ts --write)', async () => {
    for (const [service, text] of await expectedDocuments()) {
      expect(readFileSync(asyncApiPath(service), 'utf8'), `${partPlace(service).dir}/asyncapi.yaml`).toBe(
        text,
      );
    }
  });

  it('name every NATS use of the code, and nothing the code does not do', () => {
    expect(documentDrift()).toEqual([]);
  });

  it('name every event type and command of @shop/contracts: each published or answered by one service', () => {
    const { uses } = scanNatsUse();
    const by = (role: string, name: string) =>
      uses.filter((use) => use.role === role && use.name === name).map((use) => use.service);
    for (const type of Object.keys(EVENT_SCHEMA_VERSIONS).filter((each) => each !== ADMIN_ACTION)) {
      expect(new Set(by('publishes', type)).size, `publishers of ${type}`).toBe(1);
    }
    // Every service whose data admins change says so for the audit trail; the data service writes it.
    expect(new Set(by('publishes', ADMIN_ACTION))).toEqual(
      new Set(['products', 'orders', 'users', 'wallet', 'data']),
    );
    expect(by('consumes', ADMIN_ACTION)).toEqual(['data']);
    for (const pattern of Object.keys(COMMAND_SCHEMA_VERSIONS)) {
      expect(new Set(by('answers', pattern)).size, `services answering ${pattern}`).toBe(1);
      expect(by('requests', pattern).length, `services sending ${pattern}`).toBeGreaterThan(0);
    }
    // What the kit's token revocations read, every service reads.
    for (const service of SERVICES) {
      expect(by('consumes', USER_DELETED)).toContain(service);
      expect(by('consumes', USER_PASSWORD_RESET)).toContain(service);
    }
  });
});

describe('a change in the code that the documents do not follow', () => {
  it('fails naming the subject and the line: an event the document does not name', () => {
    const root = copyOfTheCode();
    writeFileSync(
      join(root, 'services', 'orders', 'src', 'refunds.ts'),
      "import { PRODUCT_DELETED } from '@shop/contracts';\n\nexport const refunded = () => newEvent(PRODUCT_DELETED, {});\n",
    );
    expect(documentDrift(root)).toEqual([
      'services/orders/src/refunds.ts:3: orders publishes product.deleted, which services/orders/asyncapi.yaml does not name',
    ]);
  });

  it('fails on a subject that is no known constant, and on an operation the code dropped', () => {
    const root = copyOfTheCode();
    const file = join(root, 'services', 'products', 'src', 'stock', 'order-events.controller.ts');
    writeFileSync(file, readFileSync(file, 'utf8').replace('[ORDER_PAID]', '[ORDER_RETURNED]'));
    const drift = documentDrift(root);
    expect(drift).toContainEqual(expect.stringMatching(/order-events\.controller\.ts:\d+: .*ORDER_RETURNED/));
    expect(drift).toContain(
      'services/products/asyncapi.yaml says products consumes order.paid, which its code does not',
    );
  });
});

describe("the render service's document", () => {
  it('names what the render service follows to keep its cache true, and nothing it sends', () => {
    const { uses } = scanNatsUse();
    const render = uses.filter((use) => use.service === 'catalog-render');
    expect(render.map((use) => `${use.role} ${use.name}`).sort()).toEqual([
      'consumes product.deleted',
      'consumes product.updated',
      'consumes settings.updated',
      'receives catalog.changed',
    ]);
  });

  it('fails when the render service follows an event its document does not name', () => {
    const root = copyOfTheCode();
    const file = join(root, 'mf-catalog', 'src', 'server', 'render-invalidation.ts');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace('eventSubject(SETTINGS_UPDATED)', 'eventSubject(WALLET_UPDATED)'),
    );
    expect(documentDrift(root)).toEqual([
      expect.stringMatching(
        /^mf-catalog\/src\/server\/render-invalidation\.ts:\d+: catalog-render consumes wallet\.updated, which mf-catalog\/asyncapi\.yaml does not name$/,
      ),
      'mf-catalog/asyncapi.yaml says catalog-render consumes settings.updated, which its code does not',
    ]);
  });
});

describe('the payload schemas', () => {
  const envelope = <T extends EventEnvelope>(type: T['type'], data: T['data']): T =>
    ({ id: 'e-1', type, schemaVersion: 1, occurredAt: '2026-11-25T12:00:00.000Z', data }) as T;
  const user = 'u1';
  // Typed by the contracts, where one zod declaration gives each payload its type and its schema: a
  // field the declaration gains fails to compile here until it is added, and the check below proves
  // the JSON Schema derived from each accepts what its type allows.
  const events: EventEnvelope[] = [
    envelope<OrderCreatedEvent>(ORDER_CREATED, {
      orderId: 'o1',
      userId: user,
      items: [{ productId: 'p1', quantity: 2, price: 10.5 }],
      paymentMethod: 'bitcoin',
      totalPrice: 24.15,
    }),
    envelope<OrderPaidEvent>(ORDER_PAID, {
      orderId: 'o1',
      userId: user,
      status: 'Paid',
      by: 'admin',
      paidAt: '2026-11-25T12:00:00.000Z',
      totalPrice: 24.15,
    }),
    envelope<OrderDeliveredEvent>(ORDER_DELIVERED, {
      orderId: 'o1',
      userId: user,
      deliveredAt: '2026-11-25T12:00:00.000Z',
    }),
    envelope<OrderCancelledEvent>(ORDER_CANCELLED, {
      orderId: 'o1',
      userId: user,
      by: 'customer',
      cancelledAt: '2026-11-25T12:00:00.000Z',
      items: [{ productId: 'p1', quantity: 2 }],
      wasPaid: false,
    }),
    envelope<OrderRefundedEvent>(ORDER_REFUNDED, {
      orderId: 'o1',
      userId: user,
      refundId: 'r1',
      amountCents: 1_000,
      refundedCents: 2_415,
      totalCents: 2_415,
      reference: 'TX-1',
      reason: 'Returned unopened',
      refundedAt: '2026-11-25T12:00:00.000Z',
      cancelled: true,
      items: [{ productId: 'p1', quantity: 2 }],
    }),
    envelope<OrderDeletedEvent>(ORDER_DELETED, {
      orderId: 'o1',
      userId: user,
      items: [{ productId: 'p1', quantity: 2 }],
      wasPaid: false,
      stockReturned: true,
    }),
    envelope<ProductUpdatedEvent>(PRODUCT_UPDATED, {
      productId: 'p1',
      slug: 'glock',
      name: 'Glock',
      price: 499,
      countInStock: 3,
    }),
    envelope<ProductDeletedEvent>(PRODUCT_DELETED, { productId: 'p1' }),
    envelope<ProductLowStockEvent>(PRODUCT_LOW_STOCK, {
      productId: 'p1',
      name: 'Glock',
      countInStock: 2,
      threshold: 5,
    }),
    envelope<LowStockThresholdUpdatedEvent>(LOW_STOCK_THRESHOLD_UPDATED, {
      settingsId: 's1',
      lowStockThreshold: 5,
    }),
    envelope<SettingsUpdatedEvent>(SETTINGS_UPDATED, {
      settingsId: 's1',
      siteName: 'Shop',
      currency: 'USD',
      logo: '',
    }),
    envelope<UserDeletedEvent>(USER_DELETED, { userId: user }),
    envelope<UserPromotedEvent>(USER_PROMOTED, { userId: user }),
    envelope<UserPasswordResetEvent>(USER_PASSWORD_RESET, {
      userId: user,
      sessionsValidFrom: 1_790_000_000,
      via: 'profile',
    }),
    envelope<WalletUpdatedEvent>(WALLET_UPDATED, {
      walletId: 'w1',
      paymentMethod: 'bitcoin',
      paymentDetails: 'bc1q',
      qrCode: '',
    }),
    envelope<AdminActionEvent>(ADMIN_ACTION, {
      actorId: user,
      action: 'product.stock-changed',
      target: { type: 'product', id: 'p1', label: 'Glock' },
      before: { countInStock: 3 },
      after: { countInStock: 9 },
    }),
  ];

  it('accept a value of each event type, and the check names every event type', () => {
    const checker = natsMessageChecker();
    for (const event of events) expect(checker.check(eventSubject(event.type), event)).toBeUndefined();
    expect([...checker.seen].sort()).toEqual(Object.keys(EVENT_SCHEMA_VERSIONS).map(eventSubject).sort());
  });

  it('refuse a changed event payload: a field renamed, a type narrowed, an unknown version', () => {
    const checker = natsMessageChecker();
    const paid = events.find((event) => event.type === ORDER_PAID) as OrderPaidEvent;
    const { totalPrice, ...rest } = paid.data;
    expect(
      checker.check(eventSubject(ORDER_PAID), { ...paid, data: { ...rest, total: totalPrice } }),
    ).toMatch(/shop\.events\.order\.paid: .*totalPrice/);
    expect(
      checker.check(eventSubject(ORDER_PAID), { ...paid, data: { ...paid.data, status: 'Refunded' } }),
    ).toMatch(/\/data\/status must be equal to one of the allowed values/);
    expect(checker.check(eventSubject(ORDER_PAID), { ...paid, schemaVersion: 2 })).toMatch(/schemaVersion/);
    expect(checker.check('shop.events.order.returned', paid)).toMatch(/no AsyncAPI document names/);
  });

  it('accept each command request and reply as NestJS sends them, and refuse a reply of another shape', () => {
    const checker = natsMessageChecker();
    const commands: [string, unknown, unknown][] = [
      [
        PRODUCTS_RESERVE,
        { reservationId: 'o1', items: [{ productId: 'p1', quantity: 1 }] } satisfies ReserveStockRequest,
        {
          reservationId: 'o1',
          items: [{ productId: 'p1', name: 'Glock', price: 499, image: '', quantity: 1 }],
        } satisfies ReserveStockReply,
      ],
      [
        PRODUCTS_RELEASE,
        { reservationId: 'o1' } satisfies ReleaseStockRequest,
        { reservationId: 'o1', released: true } satisfies ReleaseStockReply,
      ],
      [
        MEDIA_STORE_SEED_IMAGE,
        { seedKey: 'demo-1', fileName: 'a.png', contentBase64: 'iVBO' } satisfies StoreSeedImageRequest,
        { url: '/api/media/abc/a.png' } satisfies StoreSeedImageReply,
      ],
    ];
    for (const [pattern, request, reply] of commands) {
      const inbox = `_INBOX.${pattern}`;
      const data = { ...(request as object), schemaVersion: 1 };
      expect(checker.check(pattern, { pattern, data, id: 'r1' }, inbox)).toBeUndefined();
      const response = { ...(reply as object), schemaVersion: 1 };
      expect(checker.check(inbox, { id: 'r1', response, isDisposed: true })).toBeUndefined();
    }
    expect(
      checker.check(PRODUCTS_RESERVE, { pattern: PRODUCTS_RESERVE, data: {}, id: 'r2' }, '_INBOX.x'),
    ).toMatch(/reservationId/);
    expect(checker.check('_INBOX.x', { id: 'r2', err: { status: 409, message: 'Sorry' } })).toBeUndefined();
    checker.check(
      PRODUCTS_RELEASE,
      { pattern: PRODUCTS_RELEASE, data: { reservationId: 'o1', schemaVersion: 1 }, id: 'r3' },
      '_INBOX.y',
    );
    expect(checker.check('_INBOX.y', { id: 'r3', response: { released: 'yes', schemaVersion: 1 } })).toMatch(
      /reply to products\.release/,
    );
  });
});
