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
import { useAction } from '@shop/ui';

/**
 * Places the cart as an order (`POST /api/orders`) with an Idempotency-Key: one key per order intent
 * (the same lines, address and method), so a retry after a lost answer gets the order already placed,
 * never a second one. On success the cart empties and the order page opens; on a refusal (409 out of
 * stock, 404 gone, 503) the cart stays as it was and `failure` is the server's message.
 */
export function usePlaceOrder(paymentMethod: PaymentMethod) {
  const cartItems = useAtomValue(cartItemsAtom);
  const shippingAddress = useAtomValue(shippingAddressAtom);
  const prices = useAtomValue(cartPricesAtom);
  const clearCartItems = useSetAtom(clearCartItemsAtom);
  const navigate = useNavigate();
  // One order at a time: a second click before React has drawn the button disabled sends nothing.
  const { busy: placing, run } = useAction();
  const [failure, setFailure] = useState<string>();
  const intent = useRef<{ fingerprint: string; key: string } | null>(null);

  const placeOrder = async () => {
    if (cartItems.length === 0) return;
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
    const { key } = intent.current;

    setFailure(undefined);
    await run(
      async () => {
        const order = await apiFetch<Order>(ORDERS_API, {
          method: 'POST',
          body,
          headers: { [IDEMPOTENCY_KEY_HEADER]: key },
        });
        // The next order, even of the same lines, is a new intent.
        intent.current = null;
        clearCartItems();
        navigate(`/order/${order._id}`);
      },
      { onFailure: setFailure },
    );
  };

  return { placing, failure, placeOrder };
}
