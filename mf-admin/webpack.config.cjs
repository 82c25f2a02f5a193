'use strict';

// Build tooling shared by the front-ends, not code of the app: outside the module boundaries on purpose.
// eslint-disable-next-line @nx/enforce-module-boundaries
const { createWebpackConfig } = require('../tools/webpack/create-webpack-config.cjs');

// Loaded only for admins: the shell registers this remote after it knows the user is one.
// One exposed module per admin screen (docs/decisions/0009-admin-screens.md), each default-exporting it.
module.exports = (_env, argv) =>
  createWebpackConfig(
    {
      projectDir: __dirname,
      name: 'admin',
      exposes: {
        './CreateListingPage': './src/features/listing/create-listing-page.tsx',
        './UpdateProductPage': './src/features/listing/update-product-page.tsx',
        './AllProductsPage': './src/features/products/all-products-page.tsx',
        './AllOrdersPage': './src/features/orders/all-orders-page.tsx',
        './AllUsersPage': './src/features/users/all-users-page.tsx',
        './WalletUpdatePage': './src/features/wallets/wallet-update-page.tsx',
        './WebsiteUpdatePage': './src/features/website/website-update-page.tsx',
      },
    },
    argv,
  );
