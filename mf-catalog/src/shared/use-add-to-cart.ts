import { type Product, PRODUCT_MESSAGES, PRODUCTS_API } from '@shop/contracts';
import { ApiError, CART_MESSAGES, addToCartAtom, apiFetch } from '@shop/state';
import { showToast, useHydrated } from '@shop/ui';
import { useSetAtom } from 'jotai';
import { useCallback, useRef, useState } from 'react';

interface AddToCart {
  /** Adds one of the product; resolves true when the cart took it. */
  add: (productId: string) => Promise<boolean>;
  /** True while the product is being read. */
  adding: boolean;
  /**
   * False on a server-rendered page until the browser has taken it over: a press before then would do
   * nothing, so the button says it is not ready yet (disabled) instead.
   */
  ready: boolean;
}

/**
 * Add to cart through the shared cart rules (docs/product/rules.md, "Cart") with the stock read from the
 * server at the moment of the click: the page's copy may be minutes old, and another shopper may have bought
 * the last one.
 */
export function useAddToCart(): AddToCart {
  const addToCart = useSetAtom(addToCartAtom);
  const ready = useHydrated();
  const [adding, setAdding] = useState(false);
  // A second click while the first is still reading would add twice with the same stale count.
  const inFlight = useRef(false);

  const add = useCallback(
    async (productId: string) => {
      if (inFlight.current) return false;
      inFlight.current = true;
      setAdding(true);
      try {
        const fresh = await apiFetch<Product>(`${PRODUCTS_API}/${encodeURIComponent(productId)}`);
        const change = addToCart(fresh);
        if (change.ok) showToast('success', CART_MESSAGES.added);
        else showToast('warning', CART_MESSAGES.outOfStock);
        return change.ok;
      } catch (error) {
        const gone = error instanceof ApiError && error.status === 404;
        showToast(
          'error',
          gone ? PRODUCT_MESSAGES.notFound : error instanceof Error ? error.message : String(error),
        );
        return false;
      } finally {
        inFlight.current = false;
        setAdding(false);
      }
    },
    [addToCart],
  );

  return { add, adding, ready };
}
