'use strict';

// Build tooling shared by the front-ends, not code of the app: outside the module boundaries on purpose.
// eslint-disable-next-line @nx/enforce-module-boundaries
const { createWebpackConfig } = require('../tools/webpack/create-webpack-config.cjs');

// Loaded only for admins: the shell registers this remote after it knows the user is one.
module.exports = (_env, argv) =>
  createWebpackConfig(
    {
      projectDir: __dirname,
      name: 'admin',
      exposes: {
        './AdminHome': './src/features/admin-home/admin-home.tsx',
      },
    },
    argv,
  );
