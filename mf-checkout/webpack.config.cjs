'use strict';

// Build tooling shared by the front-ends, not code of the app: outside the module boundaries on purpose.
// eslint-disable-next-line @nx/enforce-module-boundaries
const { createWebpackConfig } = require('../tools/webpack/create-webpack-config.cjs');

module.exports = (_env, argv) =>
  createWebpackConfig(
    {
      projectDir: __dirname,
      name: 'checkout',
      exposes: {
        './CartPage': './src/features/cart/cart-page.tsx',
        './ShippingPage': './src/features/shipping/shipping-page.tsx',
        './PaymentPage': './src/features/payment/payment-page.tsx',
        './PlaceOrderPage': './src/features/place-order/place-order-page.tsx',
        './OrderPage': './src/features/order/order-page.tsx',
        './OrderHistoryPage': './src/features/order-history/order-history-page.tsx',
      },
    },
    argv,
  );
