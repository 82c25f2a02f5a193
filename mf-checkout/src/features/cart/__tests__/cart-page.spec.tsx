import { cartItemsAtom, type CartItem } from '@shop/state';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider, createStore } from 'jotai';
import { MemoryRouter } from 'react-router-dom';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderScreen } from '@shop/ui/testing';
import CartPage from '../cart-page';

const line: CartItem = {
  _id: 'p1',
  name: 'Glock 17',
  slug: 'glock-17',
  image: '/g17.jpg',
  price: 1500,
  countInStock: 2,
  quantity: 1,
};

function renderCart(items: CartItem[]) {
  const store = createStore();
  store.set(cartItemsAtom, items);
  render(
    <Provider store={store}>
      <MemoryRouter>
        <CartPage />
      </MemoryRouter>
    </Provider>,
  );
  return store;
}

describe('Shopping Cart screen', () => {
  beforeEach(() => localStorage.clear());

  it('says the cart is empty and disables checkout', () => {
    renderCart([]);
    expect(screen.getByRole('heading', { name: 'Shopping Cart' })).toBeInTheDocument();
    expect(screen.getByText(/Cart is empty\./)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Proceed to Checkout' })).toBeDisabled();
  });

  it('lists the lines with a subtotal and keeps the quantity within 1 and the stock', async () => {
    const store = renderCart([line]);
    expect(screen.getByRole('link', { name: 'Glock 17' })).toHaveAttribute('href', '/product/glock-17');
    expect(screen.getByRole('button', { name: 'One less Glock 17' })).toBeDisabled();

    await userEvent.click(screen.getByRole('button', { name: 'One more Glock 17' }));

    expect(store.get(cartItemsAtom)[0]?.quantity).toBe(2);
    expect(screen.getByRole('heading', { name: 'Subtotal (2 items) : $3,000.00' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'One more Glock 17' })).toBeDisabled();
  });

  it('sends checkout through sign-in, back to /shipping', async () => {
    const store = createStore();
    store.set(cartItemsAtom, [line]);
    renderScreen(<CartPage />, { url: '/cart', store });

    await userEvent.click(screen.getByRole('button', { name: 'Proceed to Checkout' }));

    expect(screen.getByTestId('location')).toHaveTextContent('/signin?redirect=/shipping');
  });
});
