'use strict';

// The front-ends' one build (@shop/webpack-preset): tooling of the build, never code of the app.
const { createWebpackConfig } = require('@shop/webpack-preset');

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
