'use strict';

// The front-ends' one build (@shop/webpack-preset): tooling of the build, never code of the app.
const { createWebpackConfig } = require('@shop/webpack-preset');

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
        './AuditTrailPage': './src/features/audit/audit-trail-page.tsx',
        './FaultFlagsPage': './src/features/flags/fault-flags-page.tsx',
      },
    },
    argv,
  );
