import { type AdminActionEvent, type AuditEntry, type SiteSettings } from '@shop/contracts';
import { adminActionEvent } from '@shop/service-kit';
import { until } from '@shop/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_ENTRY_MODEL } from '../src/audit/audit-entry.schema';
import { AuditWriter } from '../src/audit/audit.writer';
import { type DataHarness, startData } from './support/data.harness';

// The audit trail: the data service's one writer stores every admin.action the services publish, once,
// and admins read it page by page; nothing edits or removes an entry.

let data: DataHarness;

beforeAll(async () => {
  data = await startData();
});

afterAll(async () => {
  await data?.close();
});

const ADMIN = { id: 'a'.repeat(24), isAdmin: true, issuedAt: new Date() };
const OTHER_ADMIN = { id: 'b'.repeat(24), isAdmin: true, issuedAt: new Date() };

/** A product admin action on a product of its own, so each test reads only its own entries. */
function productAction(productId: string, at: string, actor = ADMIN): AdminActionEvent {
  const event = adminActionEvent({
    actor,
    action: 'product.stock-changed',
    target: { type: 'product', id: productId, label: 'Range Bag' },
    before: { countInStock: 3, name: 'Range Bag' },
    after: { countInStock: 12, name: 'Range Bag' },
  });
  return { ...event, occurredAt: at };
}

async function list(query: string, token = data.adminToken) {
  return data.call<AuditEntry[]>('GET', `/api/data/audit${query}`, { token });
}

/** Asks the trail (gently: the gateway limits how often) until it holds `count` entries of this record. */
async function entriesFor(targetId: string, count: number, timeoutMs = 10_000): Promise<AuditEntry[]> {
  return until(
    async () => {
      const { body } = await list(`?targetId=${targetId}`);
      return Array.isArray(body) && body.length >= count ? body : undefined;
    },
    { timeoutMs, intervalMs: 200 },
  );
}

describe('the audit writer', () => {
  it('stores each admin action once with who, when, what, before and after', async () => {
    const productId = 'c1'.repeat(12);
    const event = productAction(productId, '2026-11-29T08:00:00.000Z');
    await data.publish(event);
    const [entry] = await entriesFor(productId, 1);
    expect(entry).toEqual({
      _id: event.id,
      actorId: ADMIN.id,
      action: 'product.stock-changed',
      target: { type: 'product', id: productId, label: 'Range Bag' },
      // Only what changed is kept.
      before: { countInStock: 3 },
      after: { countInStock: 12 },
      at: '2026-11-29T08:00:00.000Z',
    });
    // The same event again (a redelivery, a relay that published twice): still one entry.
    await data.app.get(AuditWriter).handle(event);
    await data.publish({ ...event });
    expect((await list(`?targetId=${productId}`)).body).toHaveLength(1);
  });

  // A pull the stopped consumer left open at the server may take events published meanwhile: those come
  // again after the ack wait (30 s). Late then, never lost: hence the longer waits.
  it('records what was published while it was stopped once it is back', { timeout: 60_000 }, async () => {
    const writer = data.app.get(AuditWriter);
    const productId = 'c2'.repeat(12);
    await writer.onModuleDestroy();
    try {
      for (const minute of ['01', '02', '03']) {
        await data.publish(productAction(productId, `2026-11-29T08:${minute}:00.000Z`));
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect((await list(`?targetId=${productId}`)).body).toEqual([]);
    } finally {
      await writer.onApplicationBootstrap();
    }
    const entries = await entriesFor(productId, 3, 45_000);
    expect(entries.map((entry) => entry.at)).toEqual([
      '2026-11-29T08:03:00.000Z',
      '2026-11-29T08:02:00.000Z',
      '2026-11-29T08:01:00.000Z',
    ]);
  });

  it("records the data service's own admin actions: a settings change with its values before and after", async () => {
    const [settings] = (await data.call<SiteSettings[]>('GET', '/api/data/all-data')).body;
    const { status } = await data.call('PUT', '/api/data/update-data', {
      token: await data.tokens.sign({ isAdmin: true, sub: OTHER_ADMIN.id }),
      body: { id: settings!._id, siteName: 'Audited Arms', currency: '€', logo: '', lowStockThreshold: 4 },
    });
    expect(status).toBe(200);
    const [entry] = await entriesFor(settings!._id, 1);
    expect(entry).toMatchObject({
      actorId: OTHER_ADMIN.id,
      action: 'settings.updated',
      target: { type: 'settings', id: settings!._id, label: 'Audited Arms' },
      before: { siteName: settings!.siteName, currency: settings!.currency, lowStockThreshold: 5 },
      after: { siteName: 'Audited Arms', currency: '€', lowStockThreshold: 4 },
    });
    // The logo did not change, so the entry does not name it.
    expect(Object.keys(entry!.after!)).not.toContain('logo');
  });
});

describe('a save that changes nothing', () => {
  it('is recorded with no field before or after: the outbox keeps an empty change', async () => {
    const [settings] = (await data.call<SiteSettings[]>('GET', '/api/data/all-data')).body;
    const same = {
      id: settings!._id,
      siteName: settings!.siteName,
      currency: settings!.currency,
      logo: settings!.logo,
      lowStockThreshold: settings!.lowStockThreshold,
    };
    const before = (await list(`?targetId=${settings!._id}`)).body.length;
    expect(
      (await data.call('PUT', '/api/data/update-data', { token: data.adminToken, body: same })).status,
    ).toBe(200);
    const [entry] = await entriesFor(settings!._id, before + 1);
    expect(entry).toMatchObject({ action: 'settings.updated', before: {}, after: {} });
  });
});

describe('GET api/data/audit', () => {
  it('is for admins only', async () => {
    await data.expectAdminOnly('GET', '/api/data/audit');
  });

  it('pages the entries newest first, filtered by action, kind of record, record and admin', async () => {
    const productId = 'c3'.repeat(12);
    for (const [minute, actor] of [
      ['10', ADMIN],
      ['11', OTHER_ADMIN],
      ['12', ADMIN],
      ['13', OTHER_ADMIN],
      ['14', ADMIN],
    ] as const) {
      await data.publish(productAction(productId, `2026-11-29T09:${minute}:00.000Z`, actor));
    }
    await entriesFor(productId, 5);
    const first = await list(`?targetId=${productId}&limit=2`);
    expect(first.headers.get('x-total-count')).toBe('5');
    expect(first.body.map((entry) => entry.at)).toEqual([
      '2026-11-29T09:14:00.000Z',
      '2026-11-29T09:13:00.000Z',
    ]);
    const third = await list(`?targetId=${productId}&limit=2&page=3`);
    expect(third.body.map((entry) => entry.at)).toEqual(['2026-11-29T09:10:00.000Z']);

    const theirs = await list(`?targetId=${productId}&actorId=${OTHER_ADMIN.id}`);
    expect(theirs.body.map((entry) => entry.at)).toEqual([
      '2026-11-29T09:13:00.000Z',
      '2026-11-29T09:11:00.000Z',
    ]);
    expect((await list(`?targetId=${productId}&action=product.deleted`)).body).toEqual([]);
    expect((await list(`?targetId=${productId}&targetType=order`)).body).toEqual([]);
    const byKind = await list(`?targetType=product&action=product.stock-changed&limit=100`);
    expect(byKind.body.filter((entry) => entry.target.id === productId)).toHaveLength(5);
    expect(byKind.body.every((entry) => entry.action === 'product.stock-changed')).toBe(true);
  });

  it('refuses a query it cannot answer with a 400 that says why', async () => {
    for (const [query, says] of [
      ['?action=product.stolen', /action must be one of/],
      ['?targetType=planet', /targetType must be one of/],
      ['?limit=1000', /limit must be at most 100/],
      ['?page=0', /page must be at least 1/],
    ] as const) {
      const { status, body } = await list(query);
      expect(status, query).toBe(400);
      expect((body as unknown as { message: string }).message, query).toMatch(says);
    }
  });

  it('has no way to write, edit or remove an entry', async () => {
    const productId = 'c4'.repeat(12);
    const event = productAction(productId, '2026-11-29T10:00:00.000Z');
    await data.publish(event);
    const [entry] = await entriesFor(productId, 1);
    for (const [method, path] of [
      ['POST', '/api/data/audit'],
      ['PUT', `/api/data/audit/${event.id}`],
      ['PATCH', `/api/data/audit/${event.id}`],
      ['DELETE', `/api/data/audit/${event.id}`],
      ['DELETE', '/api/data/audit'],
    ] as const) {
      const { status } = await data.call(method, path, {
        token: data.adminToken,
        body: method === 'DELETE' ? undefined : { action: 'product.deleted' },
      });
      expect(status, `${method} ${path}`).toBe(404);
    }
    // Nor through the service's own model: the schema refuses every change.
    const model = data.app.get(`${AUDIT_ENTRY_MODEL}Model`);
    await expect(model.updateOne({ _id: event.id }, { $set: { actorId: 'x' } })).rejects.toThrow(
      /append-only/,
    );
    await expect(model.deleteOne({ _id: event.id })).rejects.toThrow(/append-only/);
    expect((await list(`?targetId=${productId}`)).body).toEqual([entry]);
  });
});
