import type { Schema } from 'mongoose';

/**
 * What a write to products changed, as far as shoppers can see: the catalogue (a product created,
 * edited or deleted may enter or leave any list, so every answer may be stale) or only the stock of
 * some products (lists keep their members; only answers showing those products are stale).
 */
export type ProductChange = { kind: 'catalogue' } | { kind: 'stock'; productIds: string[] };

type Listener = (change: ProductChange) => void;

const CATALOGUE: ProductChange = { kind: 'catalogue' };
// Fields no answer shows: the outbox, stock holds, the timestamp of the last write, a deleted slug.
const INVISIBLE = new Set(['outbox', 'holds', 'updatedAt', 'deletedSlug']);
const STOCK = 'countInStock';

// One listener per compiled model, so two apps in one process (tests) each hear their own writes.
const listeners = new WeakMap<object, Listener>();

/** Calls `listener` after every write made through `model`; answers a function that stops it. */
export function onProductWrites(model: object, listener: Listener): () => void {
  listeners.set(model, listener);
  return () => listeners.delete(model);
}

function report(model: unknown, change: ProductChange | null): void {
  if (change && model) listeners.get(model)?.(change);
}

/**
 * Reports a stock change made through the driver directly (no middleware runs there): the stock
 * reservations take the stock of many orders in one bulk write, which the bulkWrite hook below would
 * report as a change of the whole catalogue.
 */
export function reportStockChange(model: object, productIds: string[]): void {
  if (productIds.length > 0) report(model, { kind: 'stock', productIds });
}

/** The product ids a filter pins `_id` to, or undefined when it does not (any product may match). */
function filteredIds(filter: Record<string, unknown>): string[] | undefined {
  const id = filter['_id'];
  if (typeof id === 'string') return [id];
  if (id && typeof id === 'object') {
    if (typeof (id as { toHexString?: unknown }).toHexString === 'function') return [String(id)];
    const operators = id as Record<string, unknown>;
    if (Array.isArray(operators['$in'])) return operators['$in'].map(String);
    if (operators['$eq'] !== undefined) return [String(operators['$eq'])];
  }
  return undefined;
}

/** What an update changes for shoppers: nothing (null), the stock of the filtered products, or more. */
export function classifyUpdate(filter: Record<string, unknown>, update: unknown): ProductChange | null {
  if (!update || typeof update !== 'object' || Array.isArray(update)) return CATALOGUE;
  const fields = new Set<string>();
  for (const [key, value] of Object.entries(update)) {
    if (!key.startsWith('$')) fields.add(key.split('.')[0]!);
    else if (value && typeof value === 'object')
      for (const path of Object.keys(value)) fields.add(path.split('.')[0]!);
  }
  const visible = [...fields].filter((field) => !INVISIBLE.has(field));
  if (visible.length === 0) return null;
  if (visible.some((field) => field !== STOCK)) return CATALOGUE;
  const productIds = filteredIds(filter);
  return productIds ? { kind: 'stock', productIds } : CATALOGUE;
}

interface WriteQuery {
  model: unknown;
  getFilter(): Record<string, unknown>;
  getUpdate(): unknown;
}

/**
 * Reports every write to products once it is done, whichever code made it (admin, stock
 * reservations, recovery, seed), so the catalogue cache of this replica drops what it changed and
 * no write path can forget to. Other replicas learn it from NATS (catalogue-invalidation.ts).
 */
export function reportProductWrites(schema: Schema): void {
  const updates = ['updateOne', 'updateMany', 'findOneAndUpdate', 'replaceOne', 'findOneAndReplace'];
  schema.post(updates as never, function (this: WriteQuery) {
    report(this.model, classifyUpdate(this.getFilter(), this.getUpdate()));
  });
  schema.post(
    ['deleteOne', 'deleteMany', 'findOneAndDelete'] as never,
    { document: false, query: true },
    function (this: WriteQuery) {
      report(this.model, CATALOGUE);
    },
  );
  schema.post('save', function (doc: { constructor: unknown }) {
    report(doc.constructor, CATALOGUE);
  });
  schema.post(['insertMany', 'bulkWrite'] as never, function (this: unknown) {
    report(this, CATALOGUE);
  });
}
