import type { Product } from '@shop/contracts';
import type { ProductRecord } from './product.schema';

/** The fields a product answers with; the outbox, stock holds, deletion marks and timestamps stay inside. */
export const PUBLIC_FIELDS =
  '_id name slug image category brand price countInStock description rating numReviews lowStockThreshold lowStock';

export type StoredProduct = Omit<ProductRecord, 'deletedAt'> & { _id: unknown };

export function toProduct(doc: StoredProduct): Product {
  return {
    _id: String(doc._id),
    name: doc.name,
    slug: doc.slug,
    image: doc.image,
    category: doc.category,
    brand: doc.brand,
    price: doc.price,
    countInStock: doc.countInStock,
    description: doc.description,
    rating: doc.rating,
    numReviews: doc.numReviews,
    lowStockThreshold: doc.lowStockThreshold ?? null,
    lowStock: doc.lowStock ?? false,
  };
}
