import { ORDERS_API, type Order, type PaymentMethod, type PlaceOrderRequest } from '@shop/contracts';
import {
  IDEMPOTENCY_KEY_HEADER,
  apiFetch,
  cartItemsAtom,
  cartPricesAtom,
  clearCartItemsAtom,
  newIdempotencyKey,
  shippingAddressAtom,
} from '@shop/state';
import { useAtomValue, useSetAtom } from 'jotai';
import { useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { errorMessage } from '@shop/ui';

type PlaceOrderState = { status: 'idle' } | { status: 'placing' } | { status: 'failed'; message: string };

/**
 * Places the cart as an order (`POST /api/orders`) with an Idempotency-Key: one key per order intent
 * (the same lines, address and method), so a retry after a lost answer gets the order already placed,
 * never a second one. On success the cart empties and the order page opens; on a refusal (409 out of
 * stock, 404 gone, 503) the cart stays as it was and the server's message is the state.
 */
export function usePlaceOrder(paymentMethod: PaymentMethod) {
  const cartItems = useAtomValue(cartItemsAtom);
  const shippingAddress = useAtomValue(shippingAddressAtom);
  const prices = useAtomValue(cartPricesAtom);
  const clearCartItems = useSetAtom(clearCartItemsAtom);
  const navigate = useNavigate();
  const [state, setState] = useState<PlaceOrderState>({ status: 'idle' });
  // A second click before React has re-rendered the disabled button must not send a second request.
  const inFlight = useRef(false);
  const intent = useRef<{ fingerprint: string; key: string } | null>(null);

  const placeOrder = async () => {
    if (inFlight.current || cartItems.length === 0) return;
    inFlight.current = true;
    const { fullName, address, city, country, phoneNumber } = shippingAddress;
    // The server prices the order itself; the amounts are sent because the call carries them
    // (docs/product/calls.md, "Orders").
    const body: PlaceOrderRequest = {
      orderItems: cartItems.map(({ _id, name, quantity, price, image }) => ({
        _id,
        name,
        quantity,
        price,
        image,
      })),
      shippingAddress: { fullName, address, city, country, phoneNumber },
      paymentMethod,
      itemsPrice: prices.itemsPrice,
      taxPrice: prices.taxPrice,
      shippingPrice: prices.shippingPrice,
      totalPrice: prices.totalPrice,
    };
    const fingerprint = JSON.stringify([
      body.orderItems.map((line) => [line._id, line.quantity]),
      body.shippingAddress,
      paymentMethod,
    ]);
    if (intent.current?.fingerprint !== fingerprint)
      intent.current = { fingerprint, key: newIdempotencyKey() };

    setState({ status: 'placing' });
    try {
      const order = await apiFetch<Order>(ORDERS_API, {
        method: 'POST',
        body,
        headers: { [IDEMPOTENCY_KEY_HEADER]: intent.current.key },
      });
      // The next order, even of the same lines, is a new intent.
      intent.current = null;
      clearCartItems();
      navigate(`/order/${order._id}`);
    } catch (error) {
      setState({ status: 'failed', message: errorMessage(error) });
    } finally {
      inFlight.current = false;
    }
  };

  return { state, placeOrder };
}
