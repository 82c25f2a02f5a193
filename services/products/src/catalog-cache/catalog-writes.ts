import { type Connection, Model, type Schema, type mongo } from 'mongoose';

/**
 * What a write to products changed, as far as shoppers can see: the catalog (a product created,
 * edited or deleted may enter or leave any list, so every answer may be stale) or only the stock of
 * some products (lists keep their members; only answers showing those products are stale).
 */
export type CatalogChange = { kind: 'catalog' } | { kind: 'stock'; productIds: string[] };

type Listener = (change: CatalogChange) => void;

const CATALOG: CatalogChange = { kind: 'catalog' };
// Fields no answer shows: the outbox, stock holds, the timestamp of the last write, a deleted slug.
const INVISIBLE = new Set(['outbox', 'holds', 'updatedAt', 'deletedSlug']);
// What a stock move writes. The low-stock flag (low-stock.monitor.ts) is not one of them: it changes which
// products a list filtered by it holds, so its change is the catalog's (a crossing is rare).
const STOCK_FIELDS = new Set(['countInStock']);

// The listeners of each database connection, so two apps in one process (tests) each hear their own writes.
const listeners = new WeakMap<Connection, Set<Listener>>();

/** Calls `listener` after every write made to products through `connection`; answers a function that stops it. */
export function onCatalogWrites(connection: Connection, listener: Listener): () => void {
  let own = listeners.get(connection);
  if (!own) listeners.set(connection, (own = new Set()));
  own.add(listener);
  return () => own.delete(listener);
}

function report(model: { db?: Connection } | null | undefined, change: CatalogChange | null): void {
  if (change && model?.db) for (const listener of listeners.get(model.db) ?? []) listener(change);
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
export function classifyUpdate(filter: Record<string, unknown>, update: unknown): CatalogChange | null {
  if (!update || typeof update !== 'object' || Array.isArray(update)) return CATALOG;
  const fields = new Set<string>();
  for (const [key, value] of Object.entries(update)) {
    if (!key.startsWith('$')) fields.add(key.split('.')[0]!);
    else if (value && typeof value === 'object')
      for (const path of Object.keys(value)) fields.add(path.split('.')[0]!);
  }
  const visible = [...fields].filter((field) => !INVISIBLE.has(field));
  if (visible.length === 0) return null;
  if (visible.some((field) => !STOCK_FIELDS.has(field))) return CATALOG;
  const productIds = filteredIds(filter);
  return productIds ? { kind: 'stock', productIds } : CATALOG;
}

/**
 * What a bulk write changes: the stock of the products its updates pin (the stock take of many
 * orders in one command), or the catalog as soon as one operation may change more.
 */
export function classifyBulkWrite(operations: readonly mongo.AnyBulkWriteOperation[]): CatalogChange | null {
  const productIds = new Set<string>();
  for (const operation of operations) {
    const update = 'updateOne' in operation ? operation.updateOne : undefined;
    if (!update) return CATALOG;
    const change = classifyUpdate(update.filter as Record<string, unknown>, update.update);
    if (change?.kind === 'catalog') return CATALOG;
    change?.productIds.forEach((id) => productIds.add(id));
  }
  return productIds.size > 0 ? { kind: 'stock', productIds: [...productIds] } : null;
}

interface WriteQuery {
  model: { db?: Connection };
  getFilter(): Record<string, unknown>;
  getUpdate(): unknown;
}

/**
 * The schema plugin of products: every write is reported once done, whichever code made it (admin,
 * stock reservations, recovery, seed), so the catalog cache of this replica drops what it changed and
 * no write path can forget to. Other replicas learn it from NATS (catalog-invalidation.ts). Writes
 * through the driver (`Model.collection`) pass no middleware and are not seen: write through the model.
 */
export function reportCatalogWrites(schema: Schema): void {
  const updates = ['updateOne', 'updateMany', 'findOneAndUpdate', 'replaceOne', 'findOneAndReplace'];
  schema.post(updates as never, function (this: WriteQuery) {
    report(this.model, classifyUpdate(this.getFilter(), this.getUpdate()));
  });
  schema.post(
    ['deleteOne', 'deleteMany', 'findOneAndDelete'] as never,
    { document: false, query: true },
    function (this: WriteQuery) {
      report(this.model, CATALOG);
    },
  );
  schema.post('save', function (doc: { constructor: { db?: Connection } }) {
    report(doc.constructor, CATALOG);
  });
  schema.post('insertMany' as never, function (this: { db?: Connection }) {
    report(this, CATALOG);
  });
  // A bulk write's hooks see its operations (pre) or its result (post), never both, so the model's
  // own bulkWrite reports what its operations changed once it is done, failed or not (an unordered
  // write may have applied some before failing).
  schema.static(
    'bulkWrite',
    async function (
      this: Model<unknown>,
      operations: mongo.AnyBulkWriteOperation[],
      options?: Parameters<typeof Model.bulkWrite>[1],
    ) {
      const change = classifyBulkWrite(operations);
      try {
        return await Model.bulkWrite.call(this, operations as never, options);
      } finally {
        report(this, change);
      }
    },
  );
}
