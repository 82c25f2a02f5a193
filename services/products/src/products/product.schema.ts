import type { Product } from '@shop/contracts';
import { type OutboxEntry, withOutbox } from '@shop/service-kit';
import { Schema } from 'mongoose';
import { reportCatalogWrites } from '../catalog-cache';

/**
 * Stock a reservation took from this product and has neither given back nor sold yet. It is written
 * in the same atomic update that takes the stock and removed in the one that gives it back, so a
 * crash can never separate a stock change from its record (docs/decisions/0006).
 */
export interface ProductHold {
  /** The reservation's id (orders use the order id). */
  id: string;
  quantity: number;
  at: Date;
}

/** A stored product: the fields the catalog answers with (the contract's `Product`), and what stays inside. */
export interface ProductRecord extends Omit<Product, '_id'> {
  /** Set when an admin deleted the product: it then takes no part in any read or reservation. */
  deletedAt: Date | null;
  /** The slug it had, kept for the record; `slug` is freed for a new product. */
  deletedSlug?: string;
  /** Events waiting for the relay (hidden from reads). */
  outbox?: OutboxEntry[];
  /** Open stock reservations of this product (hidden from reads); see `ProductHold`. */
  holds?: ProductHold[];
}

export const PRODUCT_MODEL = 'Product';

const productHoldSchema = new Schema<ProductHold>(
  {
    id: { type: String, required: true },
    quantity: { type: Number, required: true },
    at: { type: Date, required: true },
  },
  { _id: false },
);

export const productSchema = new Schema<ProductRecord>(
  {
    name: { type: String, required: true, trim: true },
    slug: { type: String, required: true, unique: true },
    image: { type: [String], default: [] },
    category: { type: String, required: true, index: true },
    brand: { type: String, required: true, index: true },
    price: { type: Number, required: true, min: 0, index: true },
    countInStock: { type: Number, required: true, min: 0 },
    description: { type: String, required: true },
    rating: { type: Number, required: true, min: 0, max: 5, default: 0 },
    numReviews: { type: Number, required: true, min: 0, default: 0 },
    // Products stored before low stock existed have neither: the site default, not low until checked.
    lowStockThreshold: { type: Number, min: 0, default: null },
    lowStock: { type: Boolean, default: false, index: true },
    deletedAt: { type: Date, default: null, index: true },
    deletedSlug: { type: String },
    holds: { type: [productHoldSchema], default: [], select: false },
  },
  { timestamps: true, versionKey: false },
);

// The sorts of the catalogue search (newest, rating, name); price already has its index.
productSchema.index({ createdAt: -1, _id: -1 });
productSchema.index({ rating: -1, numReviews: -1 });
productSchema.index({ name: 1 });

// Without multi-document transactions the change and its event are written in one document.
withOutbox(productSchema);
// Every write is reported once done, so the catalog cache drops what it changed (catalog-cache/).
reportCatalogWrites(productSchema);
