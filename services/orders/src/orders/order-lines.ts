import { ORDER_LIMITS, type StockRequestItem } from '@shop/contracts';

/** Why a set of order lines cannot be ordered as it is (a 400 for the caller). */
export class OrderLinesError extends Error {
  override readonly name = 'OrderLinesError';
}

/**
 * Merges lines for the same product (quantities add up), keeping the order of first appearance,
 * and checks the limits that only hold after merging: units per product and distinct products.
 */
export function mergeOrderLines(lines: readonly { _id: string; quantity: number }[]): StockRequestItem[] {
  if (lines.length === 0) throw new OrderLinesError('orderItems must not be empty');
  const merged = new Map<string, number>();
  for (const line of lines) {
    const productId = line._id.toLowerCase();
    merged.set(productId, (merged.get(productId) ?? 0) + line.quantity);
  }
  if (merged.size > ORDER_LIMITS.maxLines) {
    throw new OrderLinesError(`An order may hold at most ${ORDER_LIMITS.maxLines} different products`);
  }
  const items: StockRequestItem[] = [];
  for (const [productId, quantity] of merged) {
    if (quantity > ORDER_LIMITS.maxQuantity) {
      throw new OrderLinesError(`At most ${ORDER_LIMITS.maxQuantity} units of one product per order`);
    }
    items.push({ productId, quantity });
  }
  return items;
}
