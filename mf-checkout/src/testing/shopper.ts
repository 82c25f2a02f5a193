import type { ShippingAddress as OrderAddress } from '@shop/contracts';
import type { ShippingAddress } from '@shop/state';

/** Where the tests' shopper has her order sent, as the order carries it. */
export const TEST_ADDRESS: OrderAddress = {
  fullName: 'Ann Lee',
  address: '1 Main St',
  city: 'Austin',
  country: 'United States of America',
  phoneNumber: '5125550100',
};

/** The same address as the Shipping screen keeps it in the state, with its shipping price. */
export const TEST_SHIPPING: ShippingAddress = { ...TEST_ADDRESS, price: 0 };
