import { type Product, priceOrder } from '@shop/contracts';
import { describe, expect, it } from 'vitest';
import { addToCart, cartQuantity, computeCartPrices, removeFromCart, setCartQuantity } from './cart.rules';
import type { CartItem } from './cart.types';

const product = (overrides: Partial<Product> = {}): Product => ({
  _id: 'p1',
  name: 'Glock 19',
  slug: 'glock-19',
  image: ['/img/g19-a.jpg', '/img/g19-b.jpg'],
  category: 'Pistols',
  brand: 'Glock',
  price: 599.99,
  countInStock: 2,
  description: 'Compact pistol',
  rating: 4.5,
  numReviews: 10,
  lowStockThreshold: null,
  lowStock: false,
  ...overrides,
});

describe('addToCart', () => {
  it('appends a new product with quantity 1 and its first image', () => {
    const change = addToCart([], product());
    expect(change).toEqual({
      ok: true,
      cartItems: [
        {
          _id: 'p1',
          name: 'Glock 19',
          slug: 'glock-19',
          image: '/img/g19-a.jpg',
          price: 599.99,
          countInStock: 2,
          quantity: 1,
        },
      ],
    });
  });

  it('raises the quantity by one when the same _id is already in the cart', () => {
    const first = addToCart([], product());
    if (!first.ok) throw new Error('expected the first add to succeed');
    const second = addToCart(first.cartItems, product());
    expect(second.ok && second.cartItems).toEqual([expect.objectContaining({ _id: 'p1', quantity: 2 })]);
  });

  it('refuses when the stock is lower than the new quantity', () => {
    const inCart: CartItem[] = [{ ...addToCartLine(), quantity: 2 }];
    expect(addToCart(inCart, product({ countInStock: 2 }))).toEqual({ ok: false, reason: 'out-of-stock' });
    expect(addToCart([], product({ countInStock: 0 }))).toEqual({ ok: false, reason: 'out-of-stock' });
  });

  it('uses an empty image when the product has none', () => {
    const change = addToCart([], product({ image: [] }));
    expect(change.ok && change.cartItems[0]?.image).toBe('');
  });
});

function addToCartLine(): CartItem {
  return {
    _id: 'p1',
    name: 'Glock 19',
    slug: 'glock-19',
    image: '',
    price: 599.99,
    countInStock: 2,
    quantity: 1,
  };
}

describe('setCartQuantity and removeFromCart', () => {
  it('keeps quantities between 1 and the stock', () => {
    const items = [addToCartLine()];
    expect(setCartQuantity(items, 'p1', 2)).toEqual({
      ok: true,
      cartItems: [{ ...addToCartLine(), quantity: 2 }],
    });
    expect(setCartQuantity(items, 'p1', 3)).toEqual({ ok: false, reason: 'out-of-stock' });
    expect(setCartQuantity(items, 'p1', 0)).toEqual({ ok: false, reason: 'out-of-stock' });
    expect(setCartQuantity(items, 'nope', 1)).toEqual({ ok: false, reason: 'not-in-cart' });
  });

  it('removes a line by _id', () => {
    expect(removeFromCart([addToCartLine()], 'p1')).toEqual([]);
  });
});

describe('cart amounts', () => {
  const lines: CartItem[] = [
    { ...addToCartLine(), price: 0.1, quantity: 3, countInStock: 5 },
    { ...addToCartLine(), _id: 'p2', price: 1000, quantity: 1 },
  ];

  it('counts the pieces for the badge', () => {
    expect(cartQuantity(lines)).toBe(4);
  });

  it("prices the cart with the server's priceOrder: 1% tax, no discount without bitcoin", () => {
    const expected = {
      itemsPrice: 1000.3,
      taxPrice: 10,
      discount: 0,
      shippingPrice: 0,
      totalPrice: 1010.3,
    };
    expect(computeCartPrices(lines, 'cashapp')).toEqual(expected);
    expect(computeCartPrices(lines, 'cashapp')).toEqual(priceOrder(lines, 'cashapp'));
    // No method chosen yet: the amounts without a discount.
    expect(computeCartPrices(lines, null)).toEqual(expected);
  });

  it('takes 10% off the items for bitcoin', () => {
    expect(computeCartPrices(lines, 'bitcoin')).toMatchObject({ discount: 100.03, totalPrice: 910.27 });
  });
});
