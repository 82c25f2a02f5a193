'use strict';

// Build tooling shared by the front-ends, not code of the app: outside the module boundaries on purpose.
// eslint-disable-next-line @nx/enforce-module-boundaries
const { createWebpackConfig } = require('../tools/webpack/create-webpack-config.cjs');

module.exports = (_env, argv) =>
  createWebpackConfig(
    {
      projectDir: __dirname,
      name: 'catalog',
      exposes: {
        './HomePage': './src/features/home/home-page.tsx',
        './ProductPage': './src/features/product/product-page.tsx',
        './SearchPage': './src/features/results/search-page.tsx',
        './CategoryPage': './src/features/results/category-page.tsx',
        './AboutPage': './src/features/about/about-page.tsx',
        './LegalPage': './src/features/legal/legal-page.tsx',
      },
      // The home screen's code in one file beside remoteEntry.js, not three (one round trip each).
      oneFilePerScreen: true,
    },
    argv,
  );
