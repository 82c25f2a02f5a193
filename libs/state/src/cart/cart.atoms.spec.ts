import type { Product } from '@shop/contracts';
import { createStore } from 'jotai';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const product: Product = {
  _id: 'p1',
  name: 'Holster',
  slug: 'holster',
  image: ['/img/holster.jpg'],
  category: 'Accessories',
  brand: 'Acme',
  price: 49.5,
  countInStock: 1,
  description: 'Leather holster',
  rating: 4,
  numReviews: 2,
  lowStockThreshold: null,
  lowStock: false,
};

describe('cart atoms', () => {
  beforeEach(() => {
    localStorage.clear();
    vi.resetModules();
  });

  it('saves the cart under cartItems and refuses a second piece beyond the stock', async () => {
    const { addToCartAtom, cartItemsAtom, cartQuantityAtom } = await import('./cart.atoms');
    const store = createStore();

    expect(store.set(addToCartAtom, product)).toMatchObject({ ok: true });
    expect(store.set(addToCartAtom, product)).toEqual({ ok: false, reason: 'out-of-stock' });

    expect(store.get(cartQuantityAtom)).toBe(1);
    expect(JSON.parse(localStorage.getItem('cartItems') ?? 'null')).toEqual(store.get(cartItemsAtom));
  });

  it('starts from what the browser stored, and ignores malformed values', async () => {
    localStorage.setItem('cartItems', JSON.stringify([{ ...product, image: '', quantity: 1 }]));
    localStorage.setItem('paymentMethod', JSON.stringify('not-a-method'));
    const { cartItemsAtom, paymentMethodAtom } = await import('./cart.atoms');
    const store = createStore();

    expect(store.get(cartItemsAtom)).toHaveLength(1);
    expect(store.get(paymentMethodAtom)).toBeNull();
  });

  it('ignores stored lines the pricing would refuse, such as a quantity of 0 or 1.5', async () => {
    localStorage.setItem('cartItems', JSON.stringify([{ ...product, image: '', quantity: 1.5 }]));
    const { cartItemsAtom, cartPricesAtom } = await import('./cart.atoms');
    const store = createStore();

    expect(store.get(cartItemsAtom)).toEqual([]);
    expect(store.get(cartPricesAtom).totalPrice).toBe(0);
  });

  it("reads the legacy 'PayPal' as no method chosen, and prices the chosen method", async () => {
    localStorage.setItem('cartItems', JSON.stringify([{ ...product, image: '', quantity: 1 }]));
    localStorage.setItem('paymentMethod', JSON.stringify('PayPal'));
    const { cartPricesAtom, paymentMethodAtom } = await import('./cart.atoms');
    const store = createStore();

    expect(store.get(paymentMethodAtom)).toBeNull();
    expect(store.get(cartPricesAtom)).toMatchObject({ itemsPrice: 49.5, discount: 0, totalPrice: 50 });
    store.set(paymentMethodAtom, 'bitcoin');
    expect(store.get(cartPricesAtom)).toMatchObject({ discount: 4.95, totalPrice: 45.05 });
    expect(localStorage.getItem('paymentMethod')).toBe('"bitcoin"');
  });

  it('empties the cart after an order, in storage too', async () => {
    const { addToCartAtom, cartItemsAtom, clearCartItemsAtom } = await import('./cart.atoms');
    const store = createStore();
    store.set(addToCartAtom, product);

    store.set(clearCartItemsAtom);

    expect(store.get(cartItemsAtom)).toEqual([]);
    expect(JSON.parse(localStorage.getItem('cartItems') ?? 'null')).toEqual([]);
  });
});

describe('sign out', () => {
  beforeEach(() => {
    localStorage.clear();
    vi.resetModules();
  });

  it('forgets the user and the cart, payment method back to none, and removes the four storage keys', async () => {
    localStorage.setItem(
      'userInfo',
      JSON.stringify({ _id: 'u1', name: 'Ann', email: 'a@x.io', isAdmin: false, token: 't' }),
    );
    localStorage.setItem('cartItems', JSON.stringify([{ ...product, image: '', quantity: 1 }]));
    localStorage.setItem(
      'shippingAddress',
      JSON.stringify({ fullName: 'Ann', address: 'x', city: 'y', country: 'z', phoneNumber: '1', price: 0 }),
    );
    localStorage.setItem('paymentMethod', JSON.stringify('bitcoin'));
    const state = await import('../index');
    const store = createStore();
    expect(store.get(state.userInfoAtom)?.name).toBe('Ann');

    store.set(state.signOutAtom);

    expect(store.get(state.userInfoAtom)).toBeNull();
    expect(store.get(state.cartAtom)).toMatchObject({
      cartItems: [],
      paymentMethod: null,
      totalPrice: 0,
    });
    for (const key of ['userInfo', 'cartItems', 'shippingAddress', 'paymentMethod']) {
      expect(localStorage.getItem(key)).toBeNull();
    }
  });
});
