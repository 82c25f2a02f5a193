import { randomUUID } from 'node:crypto';
import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ORDER_MODEL, type OrderRecord } from '../src/orders/order.schema';
import { until } from '@shop/testing';
import { ADDRESS, type OrdersHarness, orderBody, startOrdersHarness } from './support/orders.harness';

let h: OrdersHarness;

beforeAll(async () => {
  h = await startOrdersHarness();
});

afterAll(async () => {
  await h?.close();
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('POST api/orders: pricing by the server', () => {
  it('places an order priced from the catalogue, ignoring the client prices, and takes the stock', async () => {
    const pistol = await h.createProduct({ price: 599.99, countInStock: 5 });
    const mag = await h.createProduct({ price: 25.5, countInStock: 10 });
    const { id, token } = await h.customer();
    const answer = await h.placeOrder(
      token,
      [
        { _id: pistol._id, quantity: 1 },
        { _id: mag._id, quantity: 2 },
      ],
      { paymentMethod: 'cashapp' },
    );
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      user: id,
      orderItems: [
        { _id: pistol._id, name: pistol.name, quantity: 1, price: 599.99, image: pistol.image[0] },
        { _id: mag._id, name: mag.name, quantity: 2, price: 25.5, image: mag.image[0] },
      ],
      shippingAddress: ADDRESS,
      paymentMethod: 'cashapp',
      itemsPrice: 650.99,
      taxPrice: 6.51,
      discount: 0,
      shippingPrice: 0,
      totalPrice: 657.5,
      isPaid: false,
      paidAt: null,
      isDelivered: false,
      deliveredAt: null,
      status: 'Not paid',
      paymentReceipt: '',
      isCancelled: false,
      cancelledAt: null,
      refundedCents: 0,
      refunds: [],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(await h.stockOf(pistol._id)).toBe(4);
    expect(await h.stockOf(mag._id)).toBe(8);
    // The answer is what is stored, also once the relay has published order.created.
    await h.waitForEvent((e) => (e.data as { orderId: string }).orderId === answer.body._id);
    await until(
      async () =>
        ((await h.db.collection('orders').findOne({}, { sort: { _id: -1 } }))?.outbox ?? []).length === 0,
    );
    expect((await h.call('GET', `/api/orders/${answer.body._id}`, { token })).body).toEqual(answer.body);
  });

  it('takes 10% of the items price off for bitcoin and nothing for apple Pay', async () => {
    const product = await h.createProduct({ price: 1000, countInStock: 5 });
    const { token } = await h.customer();
    const bitcoin = await h.placeOrder(token, [{ _id: product._id, quantity: 1 }], {
      paymentMethod: 'bitcoin',
    });
    expect(bitcoin.body).toMatchObject({ itemsPrice: 1000, taxPrice: 10, discount: 100, totalPrice: 910 });
    const applePay = await h.placeOrder(token, [{ _id: product._id, quantity: 1 }], {
      paymentMethod: 'apple Pay',
    });
    expect(applePay.body).toMatchObject({ paymentMethod: 'apple Pay', discount: 0, totalPrice: 1010 });
  });

  it('publishes order.created through the outbox', async () => {
    const product = await h.createProduct({ price: 10, countInStock: 5 });
    const { id, token } = await h.customer();
    const { body } = await h.placeOrder(token, [{ _id: product._id, quantity: 2 }]);
    const event = await h.waitForEvent({ type: 'order.created', data: { orderId: body._id } });
    expect(event.data).toEqual({
      orderId: body._id,
      userId: id,
      items: [{ productId: product._id, quantity: 2, price: 10 }],
      paymentMethod: 'cashapp',
      totalPrice: 20.2,
    });
    const stored = await h.db
      .collection('orders')
      .findOne({}, { projection: { outbox: 1 }, sort: { createdAt: -1 } });
    await until(
      async () =>
        ((await h.db.collection('orders').findOne({ _id: stored!._id }))?.outbox ?? []).length === 0,
    );
  });
});

describe('POST api/orders: stock', () => {
  it('merges lines for the same product before checking the stock', async () => {
    const product = await h.createProduct({ price: 5, countInStock: 3 });
    const { token } = await h.customer();
    const merged = await h.placeOrder(token, [
      { _id: product._id, quantity: 2 },
      { _id: product._id, quantity: 1 },
    ]);
    expect(merged.status).toBe(201);
    expect(merged.body.orderItems).toEqual([expect.objectContaining({ _id: product._id, quantity: 3 })]);
    expect(merged.body.itemsPrice).toBe(15);
    expect(await h.stockOf(product._id)).toBe(0);
  });

  for (const { name, lines, refusal } of [
    {
      name: "refuses more than the stock with 409 and the spec's message, storing nothing",
      lines: (id: string) => [
        { _id: id, quantity: 2 },
        { _id: id, quantity: 2 },
      ],
      refusal: { status: 409, body: { message: 'Sorry. Product is out of stock' } },
    },
    {
      name: 'answers 404 for an unknown product and takes nothing of the other lines (all or none)',
      lines: (id: string) => [
        { _id: id, quantity: 1 },
        { _id: 'ffffffffffffffffffffffff', quantity: 1 },
      ],
      refusal: { status: 404, body: { message: 'Product Not Found' } },
    },
  ]) {
    it(name, async () => {
      const product = await h.createProduct({ price: 5, countInStock: 3 });
      const { token } = await h.customer();
      const before = await h.storedOrders();
      const answer = await h.placeOrder(token, lines(product._id));
      expect(answer).toMatchObject(refusal);
      expect(await h.stockOf(product._id)).toBe(3);
      expect(await h.storedOrders()).toBe(before);
    });
  }
});

describe('POST api/orders: a failed save', () => {
  it('gives the reserved stock back, stores nothing and frees the Idempotency-Key', async () => {
    const product = await h.createProduct({ price: 8, countInStock: 4 });
    const { token } = await h.customer();
    const orders = h.app.get<Model<OrderRecord>>(getModelToken(ORDER_MODEL));
    // The insert is the one write that fails, after the catalogue has taken the stock. Orders are
    // inserted through the driver, several checkouts in one command (order-placement.service.ts).
    vi.spyOn(orders.collection, 'insertMany').mockRejectedValueOnce(new Error('disk full'));
    const before = await h.storedOrders();
    const headers = { 'Idempotency-Key': 'save-fails-once' };
    const lines = [{ _id: product._id, quantity: 3 }];

    const failed = await h.placeOrder(token, lines, { headers });
    expect(failed).toMatchObject({
      status: 503,
      body: { message: 'The order could not be saved, please try again' },
    });
    expect(await h.storedOrders()).toBe(before);
    await until(async () => (await h.stockOf(product._id)) === 4);
    await until(async () => (await h.pendingReservations()) === 0);

    // The retry with the same key is a new attempt, and succeeds.
    const retry = await h.placeOrder(token, lines, { headers });
    expect(retry.status).toBe(201);
    expect(await h.stockOf(product._id)).toBe(1);
  });
});

describe('POST api/orders: validation', () => {
  it('answers 401 without a valid token', async () => {
    const answer = await h.placeOrder(undefined, [{ _id: 'ffffffffffffffffffffffff', quantity: 1 }]);
    expect(answer).toMatchObject({ status: 401, body: { message: 'Not signed in' } });
    expect((await h.call('POST', '/api/orders', { token: 'nope', body: {} })).status).toBe(401);
  });

  it('refuses bad items, addresses and payment methods with 400 and a message, before any stock is taken', async () => {
    const product = await h.createProduct({ price: 5, countInStock: 3 });
    const { token } = await h.customer();
    const valid = orderBody([{ _id: product._id, quantity: 1 }]);
    const cases: [string, unknown, RegExp][] = [
      ['empty items', { ...valid, orderItems: [] }, /orderItems must not be empty/],
      ['no items', { ...valid, orderItems: undefined }, /orderItems must be a list/],
      [
        'zero quantity',
        { ...valid, orderItems: [{ _id: product._id, quantity: 0 }] },
        /quantity must be at least 1/,
      ],
      [
        'negative quantity',
        { ...valid, orderItems: [{ _id: product._id, quantity: -2 }] },
        /quantity must be at least 1/,
      ],
      [
        'fractional quantity',
        { ...valid, orderItems: [{ _id: product._id, quantity: 1.5 }] },
        /quantity must be a whole number/,
      ],
      [
        'quantity as text',
        { ...valid, orderItems: [{ _id: product._id, quantity: '2' }] },
        /quantity must be a whole number/,
      ],
      [
        'huge quantity',
        { ...valid, orderItems: [{ _id: product._id, quantity: 1_000_001 }] },
        /quantity must be at most 1000/,
      ],
      [
        'merged over the limit',
        {
          ...valid,
          orderItems: [
            { _id: product._id, quantity: 600 },
            { _id: product._id, quantity: 600 },
          ],
        },
        /At most 1000 units/,
      ],
      [
        'bad product id',
        { ...valid, orderItems: [{ _id: 'abc', quantity: 1 }] },
        /orderItems.0._id must be the id of a product/,
      ],
      ['item not an object', { ...valid, orderItems: ['x'] }, /orderItems/],
      [
        'PayPal',
        { ...valid, paymentMethod: 'PayPal' },
        /paymentMethod must be one of: bitcoin, apple Pay, cashapp/,
      ],
      ['no payment method', { ...valid, paymentMethod: undefined }, /paymentMethod must be one of/],
      ['no address', { ...valid, shippingAddress: undefined }, /shippingAddress is required/],
      [
        'blank full name',
        { ...valid, shippingAddress: { ...ADDRESS, fullName: '   ' } },
        /fullName is required/,
      ],
      ['no city', { ...valid, shippingAddress: { ...ADDRESS, city: undefined } }, /city is required/],
      ['blank country', { ...valid, shippingAddress: { ...ADDRESS, country: '' } }, /country is required/],
      [
        'long address',
        { ...valid, shippingAddress: { ...ADDRESS, address: 'x'.repeat(201) } },
        /address must be shorter than or equal to 200/,
      ],
      [
        'bad phone',
        { ...valid, shippingAddress: { ...ADDRESS, phoneNumber: 'call me maybe' } },
        /phoneNumber must be a phone number/,
      ],
      [
        'operator in a field',
        { ...valid, shippingAddress: { ...ADDRESS, city: { $ne: null } } },
        /city must be a string/,
      ],
    ];
    const before = await h.storedOrders();
    for (const [name, body, message] of cases) {
      const answer = await h.call<{ message: string }>('POST', '/api/orders', { token, body });
      expect(answer.status, name).toBe(400);
      expect(answer.body.message, name).toMatch(message);
    }
    const malformed = await fetch(`${h.url}/api/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: '{"orderItems": [',
    });
    expect(malformed.status).toBe(400);
    expect(await h.storedOrders()).toBe(before);
    expect(await h.stockOf(product._id)).toBe(3);
  });
});

describe('POST api/orders: Idempotency-Key', () => {
  it('answers a retry with the same order and takes the stock once', async () => {
    const product = await h.createProduct({ price: 20, countInStock: 5 });
    const { token } = await h.customer();
    const headers = { 'Idempotency-Key': 'checkout-retry-1' };
    const lines = [{ _id: product._id, quantity: 2 }];
    const first = await h.placeOrder(token, lines, { headers });
    const retry = await h.placeOrder(token, lines, { headers });
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(retry.body).toEqual(first.body);
    expect(await h.stockOf(product._id)).toBe(3);
    expect(await h.db.collection('orders').countDocuments({ 'orderItems._id': product._id })).toBe(1);
  });

  it('keeps keys apart per customer', async () => {
    const product = await h.createProduct({ price: 20, countInStock: 5 });
    const lines = [{ _id: product._id, quantity: 1 }];
    const headers = { 'Idempotency-Key': 'shared-key' };
    const a = await h.placeOrder((await h.customer()).token, lines, { headers });
    const b = await h.placeOrder((await h.customer()).token, lines, { headers });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(a.body._id).not.toBe(b.body._id);
    expect(await h.stockOf(product._id)).toBe(3);
  });

  it('refuses the same key for a different order with 422', async () => {
    const product = await h.createProduct({ price: 20, countInStock: 5 });
    const { token } = await h.customer();
    const headers = { 'Idempotency-Key': 'checkout-reused' };
    await h.placeOrder(token, [{ _id: product._id, quantity: 1 }], { headers });
    const other = await h.placeOrder(token, [{ _id: product._id, quantity: 2 }], { headers });
    expect(other).toMatchObject({
      status: 422,
      body: { message: 'This Idempotency-Key was already used for a different order' },
    });
    expect(await h.stockOf(product._id)).toBe(4);
  });

  it('lets a key be used again after its first request was refused', async () => {
    const product = await h.createProduct({ price: 20, countInStock: 1 });
    const { token } = await h.customer();
    const headers = { 'Idempotency-Key': 'checkout-after-refusal' };
    expect((await h.placeOrder(token, [{ _id: product._id, quantity: 2 }], { headers })).status).toBe(409);
    const smaller = await h.placeOrder(token, [{ _id: product._id, quantity: 1 }], { headers });
    expect(smaller.status).toBe(201);
  });

  it('places one order for concurrent requests with the same key', async () => {
    const product = await h.createProduct({ price: 20, countInStock: 10 });
    const { token } = await h.customer();
    const headers = { 'Idempotency-Key': 'double-click' };
    const lines = [{ _id: product._id, quantity: 1 }];
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => h.placeOrder(token, lines, { headers })),
    );
    const placed = answers.filter((a) => a.status === 201);
    expect(placed.length).toBeGreaterThanOrEqual(1);
    expect(new Set(placed.map((a) => a.body._id)).size).toBe(1);
    for (const answer of answers.filter((a) => a.status !== 201)) {
      expect(answer).toMatchObject({
        status: 409,
        body: { message: expect.stringMatching(/still being placed/) },
      });
    }
    expect(await h.stockOf(product._id)).toBe(9);
    expect(await h.db.collection('orders').countDocuments({ 'orderItems._id': product._id })).toBe(1);
    // Once the first answered, a retry gets the order.
    const retry = await h.placeOrder(token, lines, { headers });
    expect(retry.body._id).toBe(placed[0]!.body._id);
  });

  it('stores each of many concurrent checkouts once and answers their replays with the same orders', async () => {
    // Concurrent checkouts share their key, pending-reservation and order writes (group commit).
    const products = await Promise.all(
      Array.from({ length: 4 }, (_, i) => h.createProduct({ price: 3 + i, countInStock: 10 })),
    );
    const buyers = await Promise.all(Array.from({ length: 4 }, () => h.customer()));
    const checkouts = Array.from({ length: 16 }, (_, i) => ({
      token: buyers[i % 4]!.token,
      headers: { 'Idempotency-Key': `burst-${randomUUID()}` },
      lines: [{ _id: products[Math.floor(i / 4)]!._id, quantity: 1 + (i % 2) }],
    }));
    const place = () =>
      Promise.all(checkouts.map((c) => h.placeOrder(c.token, c.lines, { headers: c.headers })));

    const first = await place();
    expect(first.map((a) => a.status)).toEqual(checkouts.map(() => 201));
    expect(new Set(first.map((a) => a.body._id)).size).toBe(16);
    const replays = await place();
    expect(replays.map((a) => a.headers.get('idempotent-replayed'))).toEqual(checkouts.map(() => 'true'));
    expect(replays.map((a) => a.body)).toEqual(first.map((a) => a.body));
    for (const product of products) {
      // Four checkouts per product, of 1 and 2 units alternately: 6 taken, once.
      expect(await h.stockOf(product._id)).toBe(4);
      expect(await h.db.collection('orders').countDocuments({ 'orderItems._id': product._id })).toBe(4);
    }
    await until(async () => (await h.pendingReservations()) === 0);
  });

  it('refuses a malformed key with 400', async () => {
    const { token } = await h.customer();
    const answer = await h.placeOrder(token, [{ _id: 'ffffffffffffffffffffffff', quantity: 1 }], {
      headers: { 'Idempotency-Key': 'x'.repeat(129) },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(/Idempotency-Key must be 1 to 128 visible ASCII characters/);
  });
});
