import { ORDERS_API, type Order, priceOrder } from '@shop/contracts';
import {
  type CartItem,
  cartItemsAtom,
  paymentMethodAtom,
  shippingAddressAtom,
  siteSettingsAtom,
} from '@shop/state';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type StubAnswer, json, renderScreen, stubApi } from '@shop/ui/testing';
import { TEST_ADDRESS, TEST_SHIPPING } from '../../../testing/shopper';
import PlaceOrderPage from '../place-order-page';

const lines: CartItem[] = [
  {
    _id: '64b000000000000000000001',
    name: 'Glock 19',
    slug: 'glock-19',
    image: '/g19.jpg',
    price: 599.99,
    countInStock: 5,
    quantity: 2,
  },
  {
    _id: '64b000000000000000000002',
    name: 'Holster',
    slug: 'holster',
    image: '',
    price: 1234.5,
    countInStock: 1,
    quantity: 1,
  },
];

const placed = { _id: '64b0000000000000000000aa' } as Order;

function renderPreview(paymentMethod: 'bitcoin' | 'cashapp' | null = 'bitcoin', items = lines) {
  const store = createStore();
  store.set(siteSettingsAtom, { websiteName: 'Shop', currency: '$', logo: '' });
  store.set(shippingAddressAtom, TEST_SHIPPING);
  store.set(cartItemsAtom, items);
  store.set(paymentMethodAtom, paymentMethod);
  renderScreen(<PlaceOrderPage />, { url: '/placeorder', store });
  return store;
}

const summaryRow = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling;

describe('Preview Order screen', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.unstubAllGlobals());

  it('sends a shopper who has not chosen a payment method to /payment', () => {
    renderPreview(null);
    expect(screen.getByTestId('location')).toHaveTextContent('/payment');
  });

  it('sends a shopper without a shipping address to /shipping', () => {
    const store = createStore();
    store.set(paymentMethodAtom, 'bitcoin');
    renderScreen(<PlaceOrderPage />, { url: '/placeorder', store });
    expect(screen.getByTestId('location')).toHaveTextContent('/shipping');
  });

  it('shows address, method and items with Edit links, at the Place Order step', () => {
    renderPreview();
    expect(screen.getByRole('heading', { level: 1, name: 'Preview Order' })).toBeInTheDocument();
    expect(screen.getByText('Place Order', { selector: 'li' })).toHaveAttribute('aria-current', 'step');
    expect(screen.getByText(/1 Main St, Austin, United States of America/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Edit shipping' })).toHaveAttribute('href', '/shipping');
    expect(screen.getByRole('link', { name: 'Edit payment' })).toHaveAttribute('href', '/payment');
    expect(screen.getByRole('link', { name: 'Edit items' })).toHaveAttribute('href', '/cart');
    const items = within(screen.getByRole('list', { name: 'Order items' })).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Glock 19');
    expect(items[0]).toHaveTextContent('2 x $599.99 = $1,199.98');
  });

  it('prices the preview with priceOrder, showing the bitcoin discount', () => {
    renderPreview('bitcoin');
    const expected = priceOrder(lines, 'bitcoin');
    expect(expected).toEqual({
      itemsPrice: 2434.48,
      taxPrice: 24.34,
      discount: 243.45,
      shippingPrice: 0,
      totalPrice: 2215.37,
    });
    expect(summaryRow('Items')).toHaveTextContent('$2,434.48');
    expect(summaryRow('Tax')).toHaveTextContent('$24.34');
    expect(summaryRow('Bitcoin Discount')).toHaveTextContent('-$243.45');
    expect(summaryRow('Order Total')).toHaveTextContent('$2,215.37');
  });

  it('shows no Bitcoin Discount for another method', () => {
    renderPreview('cashapp');
    expect(screen.queryByText('Bitcoin Discount')).not.toBeInTheDocument();
    expect(summaryRow('Order Total')).toHaveTextContent('$2,458.82');
  });

  it('places one order with an Idempotency-Key however fast it is clicked, empties the cart and opens the order', async () => {
    let answer: (reply: StubAnswer) => void = () => {};
    const api = stubApi(() => new Promise<StubAnswer>((resolve) => (answer = resolve)));
    const store = renderPreview();
    const user = userEvent.setup();

    await user.dblClick(screen.getByRole('button', { name: 'Place Order' }));
    expect(screen.getByRole('button', { name: 'Placing Order...' })).toBeDisabled();
    expect(api.calls).toHaveLength(1);

    const { url, method, init, body } = api.calls[0]!;
    expect(url).toBe(ORDERS_API);
    expect(method).toBe('POST');
    expect(new Headers(init.headers).get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(body).toEqual({
      orderItems: lines.map(({ _id, name, quantity, price, image }) => ({
        _id,
        name,
        quantity,
        price,
        image,
      })),
      shippingAddress: TEST_ADDRESS,
      paymentMethod: 'bitcoin',
      itemsPrice: 2434.48,
      taxPrice: 24.34,
      shippingPrice: 0,
      totalPrice: 2215.37,
    });

    answer(json(201, placed));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(`/order/${placed._id}`));
    expect(store.get(cartItemsAtom)).toEqual([]);
    expect(localStorage.getItem('cartItems')).toBe('[]');
  });

  it("keeps the cart and shows the server's message when stock ran out, and retries with the same key", async () => {
    let reply = json(409, { message: 'Sorry. Product is out of stock' });
    const api = stubApi(() => reply);
    const store = renderPreview();
    const user = userEvent.setup();

    await user.click(screen.getByRole('button', { name: 'Place Order' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Sorry. Product is out of stock');
    expect(store.get(cartItemsAtom)).toEqual(lines);
    expect(screen.getByTestId('location')).toHaveTextContent('/placeorder');

    reply = json(503, { message: 'Service temporarily unavailable' });
    await user.click(screen.getByRole('button', { name: 'Place Order' }));
    expect(await screen.findByText('Service temporarily unavailable')).toBeInTheDocument();
    const keys = api.calls.map(({ init }) => new Headers(init.headers).get('Idempotency-Key'));
    expect(keys[0]).toBe(keys[1]);
    expect(store.get(cartItemsAtom)).toEqual(lines);
  });

  it('disables Place Order for an empty cart', () => {
    renderPreview('bitcoin', []);
    expect(screen.getByText(/Cart is empty\./)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Place Order' })).toBeDisabled();
  });
});
