/** The payment screen's choices (docs/product/screens.md, "Payment"); an order names exactly one of them. */
export const PAYMENT_METHODS = ['bitcoin', 'apple Pay', 'cashapp'] as const;

export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** Whether a value is one of the shop's payment methods (case and spacing as the payment screen has them). */
export function isPaymentMethod(value: unknown): value is PaymentMethod {
  return typeof value === 'string' && (PAYMENT_METHODS as readonly string[]).includes(value);
}

/** Tax on the items price, in percent (docs/product/rules.md, "Pricing"). */
const TAX_PERCENT = 1;

/** Discount on the items price when paying with bitcoin, in percent (docs/product/rules.md, "Pricing"). */
const BITCOIN_DISCOUNT_PERCENT = 10;

/** One priced line: a unit price in the shop's currency and a positive whole quantity. */
export interface PricedLine {
  price: number;
  quantity: number;
}

/** An order's amounts, in the shop's currency with at most two decimals. */
export interface OrderPrices {
  itemsPrice: number;
  taxPrice: number;
  /** The bitcoin discount; 0 for other methods. */
  discount: number;
  shippingPrice: number;
  totalPrice: number;
}

/** The same amounts in integer cents, the unit every computation is done in. */
export type OrderPricesInCents = OrderPrices;

/**
 * A currency amount as integer cents, rounding half up on the third decimal. Going through
 * 12 significant digits first undoes binary noise such as 1.005 * 100 = 100.49999999999999.
 */
export function toCents(amount: number): number {
  if (!Number.isFinite(amount) || amount < 0) throw new RangeError(`not a price: ${amount}`);
  return Math.floor(Number((amount * 100).toPrecision(12)) + 0.5);
}

/** Integer cents as an amount with two decimals (the API's unit). */
export function fromCents(cents: number): number {
  return Math.round(cents) / 100;
}

/** `percent`% of `cents`, rounded half up to a whole cent, in integer arithmetic only. */
function percentOf(cents: number, percent: number): number {
  return Math.floor((cents * percent + 50) / 100);
}

/**
 * Prices an order in integer cents: items = Σ price × quantity; tax = 1% of items; bitcoin takes
 * 10% of items off; total = items + tax − discount; shipping is 0. Each percentage is rounded half
 * up to a whole cent on its own, before the total is summed.
 */
export function priceOrderInCents(lines: readonly PricedLine[], paymentMethod: string): OrderPricesInCents {
  let itemsPrice = 0;
  for (const line of lines) {
    if (!Number.isSafeInteger(line.quantity) || line.quantity < 1) {
      throw new RangeError(`not a quantity: ${line.quantity}`);
    }
    itemsPrice += toCents(line.price) * line.quantity;
  }
  if (!Number.isSafeInteger(itemsPrice)) throw new RangeError('order total is too large');
  const taxPrice = percentOf(itemsPrice, TAX_PERCENT);
  const discount = paymentMethod === 'bitcoin' ? percentOf(itemsPrice, BITCOIN_DISCOUNT_PERCENT) : 0;
  const shippingPrice = 0;
  return {
    itemsPrice,
    taxPrice,
    discount,
    shippingPrice,
    totalPrice: itemsPrice + taxPrice + shippingPrice - discount,
  };
}

/** Prices an order (see {@link priceOrderInCents}) and answers the amounts with two decimals, as the API does. */
export function priceOrder(lines: readonly PricedLine[], paymentMethod: string): OrderPrices {
  const cents = priceOrderInCents(lines, paymentMethod);
  return {
    itemsPrice: fromCents(cents.itemsPrice),
    taxPrice: fromCents(cents.taxPrice),
    discount: fromCents(cents.discount),
    shippingPrice: fromCents(cents.shippingPrice),
    totalPrice: fromCents(cents.totalPrice),
  };
}
