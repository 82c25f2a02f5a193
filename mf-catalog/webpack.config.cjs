'use strict';

// The front-ends' one build (@shop/webpack-preset): tooling of the build, never code of the app.
const { createServerWebpackConfig, createWebpackConfig } = require('@shop/webpack-preset');

module.exports = (_env, argv) => [
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
  ),
  // The same screens rendered on the server by the catalog's render service (docs/decisions/0020).
  createServerWebpackConfig(
    {
      projectDir: __dirname,
      name: 'catalog',
      entry: { main: './src/server/main.ts', 'render-server': './src/server/render-server.ts' },
    },
    argv,
  ),
];
