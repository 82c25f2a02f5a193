'use strict';

// The front-ends' one build (@shop/webpack-preset): tooling of the build, never code of the app.
const { createServerWebpackConfig, createWebpackConfig } = require('@shop/webpack-preset');

// The shell is the host: no remotes here. They are read at run time from remotes.json (public/), which is
// configuration per environment, copied to dist as-is.
module.exports = (_env, argv) => [
  createWebpackConfig(
    {
      projectDir: __dirname,
      name: 'shell',
      entry: './src/index.ts',
      template: './src/index.html',
      // Starts the first screen's calls and hints from the HTML itself, before any script file arrives.
      inlineStart: './src/first-screen/early-start.ts',
      publicDir: 'public',
    },
    argv,
  ),
  // The page server: the same layout rendered on the server around the remotes' fragments (docs/decisions/0020).
  createServerWebpackConfig(
    {
      projectDir: __dirname,
      name: 'shell',
      entry: { main: './src/server/main.ts', 'page-server': './src/server/page-server.tsx' },
    },
    argv,
  ),
];
