'use strict';

const path = require('node:path');
const fs = require('node:fs');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const MiniCssExtractPlugin = require('mini-css-extract-plugin');
const CopyWebpackPlugin = require('copy-webpack-plugin');
const CompressionPlugin = require('compression-webpack-plugin');
const zlib = require('node:zlib');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const { sharedDependencies } = require('./shared-dependencies.cjs');
const { EntryPriorityPlugin } = require('./entry-priority-plugin.cjs');
const { InlineStartPlugin } = require('./inline-start-plugin.cjs');
const { PrivateSourceMapsPlugin } = require('./private-source-maps-plugin.cjs');
const { LeanRemoteEntryPlugin, provideRuntimeCorePlugin } = require('./lean-remote-entry-plugin.cjs');

/**
 * @typedef {object} FrontEndOptions
 * @property {string} projectDir absolute folder of the front-end (its package.json is read from there)
 * @property {string} name federation name, a JS identifier: 'shell', 'catalog', 'checkout', 'admin'
 * @property {Record<string, string>} [exposes] remote only: exposed module name → source file
 * @property {string} [entry] host only: the start-up module (default ./src/index.ts)
 * @property {string} [template] host only: the HTML page template (default ./src/index.html)
 * @property {string} [inlineStart] host only: a module built on its own and written inline into the page's head
 * @property {string} [publicDir] files copied as-is into dist (configuration such as remotes.json)
 * @property {string} [cssPrefix] prefix of CSS Modules class names (default: name)
 * @property {boolean} [oneFilePerScreen] remote only: each exposed module in one file, no chunks shared between them
 */

/**
 * webpack configuration of one storefront front-end: the shell (host, no exposes) or a remote.
 * Production unless `--mode development` is given.
 *
 * @param {FrontEndOptions} options
 * @param {{ mode?: 'production' | 'development' | 'none' }} [argv] webpack-cli's argv
 * @returns {import('webpack').Configuration}
 */
function createWebpackConfig(options, argv = {}) {
  const { projectDir, name } = options;
  const mode = argv.mode ?? 'production';
  const isProduction = mode === 'production';
  const isHost = !options.exposes;
  const packageJson = JSON.parse(fs.readFileSync(path.join(projectDir, 'package.json'), 'utf8'));
  const cssPrefix = options.cssPrefix ?? name;
  // Every release of the shell is served under its own version, so old and new pages never mix files.
  const hostPublicPath = `/${packageJson.version}/`;

  const cssLoader = (modules) => ({
    loader: require.resolve('css-loader'),
    options: {
      // css-loader follows `devtool` by default, and style-loader then writes each stylesheet's map, with its
      // whole source, into the script that injects it: public and on every first load. Development only.
      sourceMap: !isProduction,
      ...(modules ? { modules: cssModules(cssPrefix, isProduction) } : { modules: false }),
    },
  });

  // Production stylesheets are files, not scripts that write <style> tags: a page rendered on the server
  // (docs/decisions/0020) links them in its head and paints styled before any script has run, and the
  // first screen's scripts carry no CSS. Each chunk's CSS is a file of its own, loaded with the chunk
  // by the chunk's runtime (a remote's by its own), or linked by the page (the shell's entry CSS by HtmlWebpackPlugin, the
  // page server for a remote's screen, from its mf-manifest.json). Development keeps style-loader.
  const styleLoader = isProduction ? MiniCssExtractPlugin.loader : require.resolve('style-loader');

  /** @type {import('webpack').WebpackPluginInstance[]} */
  const plugins = [
    new ModuleFederationPlugin({
      name,
      // A remote's container is assigned to `self[name]` (not a `var`), so the lean entry can start it later.
      ...(isHost
        ? {}
        : { filename: REMOTE_ENTRY, exposes: options.exposes, library: { type: 'global', name } }),
      // Remotes are registered at run time from remotes.json; none is known when building.
      remotes: {},
      shared: sharedDependencies(packageJson, { host: isHost }),
      // Use what is already on the page before fetching anything, so a shopper never loads the admin remote.
      shareStrategy: 'loaded-first',
      // Only the runtime code the browser needs: no Node.js paths anywhere; a remote never loads other
      // remotes (only the shell does, from their mf-manifest.json, which is what the snapshot code is for).
      experiments: {
        optimization: isHost
          ? { target: 'web' }
          : { target: 'web', disableRemote: true, disableSnapshot: true },
        // One copy of the runtime's core on the page: the shell provides its own (runtimePlugins below), and
        // a remote's entry uses it, falling back to a copy of its own under shells that provide none
        // (lean-remote-entry-plugin.cjs).
        ...(isHost ? {} : { externalRuntime: true }),
      },
      ...(isHost ? { runtimePlugins: [provideRuntimeCorePlugin()] } : {}),
      manifest: true,
      dts: false,
      dev: false,
    }),
  ];
  if (isHost) {
    plugins.push(
      new HtmlWebpackPlugin({
        template: path.resolve(projectDir, options.template ?? 'src/index.html'),
        publicPath: hostPublicPath,
      }),
      new EntryPriorityPlugin(),
    );
    if (options.inlineStart) plugins.push(new InlineStartPlugin({ entry: options.inlineStart }));
  }
  if (!isHost) plugins.push(new LeanRemoteEntryPlugin({ name, filename: REMOTE_ENTRY }));
  if (options.publicDir && fs.existsSync(path.resolve(projectDir, options.publicDir))) {
    plugins.push(
      new CopyWebpackPlugin({ patterns: [{ from: path.resolve(projectDir, options.publicDir) }] }),
    );
  }

  if (isProduction) {
    plugins.push(
      new MiniCssExtractPlugin({
        filename: '[name].[contenthash:8].css',
        chunkFilename: '[name].[contenthash:8].css',
      }),
      ...precompression(),
      // Maps are for the team, not the public: written beside dist/, never into it (so never served, never
      // in an image), one folder per version like the served files.
      new PrivateSourceMapsPlugin({ dir: path.join(projectDir, 'source-maps', packageJson.version) }),
    );
  }

  return {
    mode,
    context: projectDir,
    // A remote has no page of its own: the container entry (remoteEntry.js) is added by the federation plugin.
    entry: isHost ? { main: options.entry ?? './src/index.ts' } : {},
    // Production maps are written for error reports but named by no script, and kept out of dist/ (above).
    devtool: isProduction ? 'hidden-source-map' : 'eval-cheap-module-source-map',
    output: {
      path: path.resolve(projectDir, 'dist'),
      // Shell pages live at deep URLs (/order/123), so its assets are addressed from the root, under its
      // version; remotes resolve their chunks relative to where their remoteEntry.js was loaded from
      // (/remotes/<name>/<version>/). Versioned paths: docs/decisions/0011-versioned-front-ends.md.
      publicPath: isHost ? hostPublicPath : 'auto',
      filename: '[name].[contenthash:8].js',
      chunkFilename: '[name].[contenthash:8].js',
      assetModuleFilename: 'assets/[name].[contenthash:8][ext]',
      uniqueName: `shop_${name}`,
      clean: true,
    },
    resolve: {
      extensions: ['.tsx', '.ts', '.mjs', '.js', '.json'],
      // Workspace libraries are compiled from their TypeScript source (package.json "source" export).
      conditionNames: ['source', '...'],
    },
    module: {
      rules: [
        {
          test: /\.[cm]?tsx?$/,
          exclude: /node_modules/,
          use: {
            loader: require.resolve('swc-loader'),
            options: {
              jsc: {
                parser: { syntax: 'typescript', tsx: true },
                transform: { react: { runtime: 'automatic', development: !isProduction } },
                target: 'es2022',
              },
            },
          },
        },
        { test: /\.module\.css$/, use: [styleLoader, cssLoader(true)] },
        {
          test: /\.css$/,
          exclude: /\.module\.css$/,
          use: [styleLoader, cssLoader(false)],
        },
        { test: /\.(png|jpe?g|gif|webp|svg|woff2?)$/, type: 'asset' },
      ],
    },
    plugins,
    // The host's first screen is its entry alone: the libraries it shares are eager (shared-dependencies.cjs),
    // and its start-up module imports the rest in the same file (shell/src/index.ts).
    optimization: options.oneFilePerScreen
      ? // Each exposed screen in one file (each file is a round trip of its own on a slow connection):
        // no chunk shared between screens, at the price of some code stored twice on the server.
        { splitChunks: false }
      : {},
    performance: {
      hints: isProduction ? 'warning' : false,
      maxAssetSize: 512 * 1024,
      maxEntrypointSize: 512 * 1024,
    },
    stats: 'errors-warnings',
  };
}

/**
 * CSS Modules naming, one for the browser's build and the server's (whose class names must be the same, or
 * hydration would meet other classes).
 */
function cssModules(cssPrefix, isProduction) {
  return {
    // Class names carry the remote's name so two remotes' `.card` never collide on one page.
    localIdentName: isProduction ? `${cssPrefix}-[hash:base64:6]` : `${cssPrefix}__[name]__[local]`,
    namedExport: false,
    exportLocalsConvention: 'as-is',
  };
}

/**
 * @typedef {object} ServerBuildOptions
 * @property {string} projectDir absolute folder of the front-end
 * @property {string} name the front-end's federation name (its CSS prefix, and where its files are served)
 * @property {Record<string, string>} entry output name → server source file
 * @property {string} [cssPrefix] as the browser build's (default: name)
 */

/**
 * webpack configuration of a front-end's server build (docs/decisions/0020): the same components as the
 * browser's, for Node, in `dist-server/` (never served as a file), one self-contained file per entry (no
 * node_modules needed to run it). Class names and asset URLs are the browser build's, so the HTML it renders
 * is what the browser's code hydrates.
 *
 * @param {ServerBuildOptions} options
 * @param {{ mode?: 'production' | 'development' | 'none' }} [argv] webpack-cli's argv
 * @returns {import('webpack').Configuration}
 */
function createServerWebpackConfig(options, argv = {}) {
  const { projectDir, name } = options;
  const mode = argv.mode ?? 'production';
  const isProduction = mode === 'production';
  const packageJson = JSON.parse(fs.readFileSync(path.join(projectDir, 'package.json'), 'utf8'));
  const cssPrefix = options.cssPrefix ?? name;
  const { DefinePlugin } = require('webpack');
  return {
    mode,
    name: `${name}-server`,
    context: projectDir,
    target: 'node20',
    entry: options.entry,
    devtool: 'source-map',
    output: {
      path: path.resolve(projectDir, 'dist-server'),
      filename: '[name].js',
      library: { type: 'commonjs2' },
      // Asset URLs as the browser build makes them: under the front-end's versioned path.
      publicPath: name === 'shell' ? `/${packageJson.version}/` : `/remotes/${name}/${packageJson.version}/`,
      assetModuleFilename: 'assets/[name].[contenthash:8][ext]',
      clean: true,
    },
    resolve: { extensions: ['.tsx', '.ts', '.mjs', '.js', '.json'], conditionNames: ['source', '...'] },
    module: {
      rules: [
        {
          test: /\.[cm]?tsx?$/,
          exclude: /node_modules/,
          // What our sources import: a module's server variant (remote-route.server.tsx beside
          // remote-route.tsx) is taken first, so what only the server does stays out of the browser's bytes.
          resolve: { extensions: ['.server.tsx', '.server.ts', '.tsx', '.ts', '.mjs', '.js', '.json'] },
          use: {
            loader: require.resolve('swc-loader'),
            options: {
              jsc: {
                parser: { syntax: 'typescript', tsx: true },
                transform: { react: { runtime: 'automatic', development: false } },
                target: 'es2022',
              },
            },
          },
        },
        {
          test: /\.module\.css$/,
          use: {
            loader: require.resolve('css-loader'),
            options: { modules: { ...cssModules(cssPrefix, isProduction), exportOnlyLocals: true } },
          },
        },
        // Global stylesheets are the browser's to load: nothing of them on the server.
        {
          test: /\.css$/,
          exclude: /\.module\.css$/,
          use: {
            loader: require.resolve('css-loader'),
            options: { modules: { mode: 'global', exportOnlyLocals: true } },
          },
        },
        { test: /\.(png|jpe?g|gif|webp|svg|woff2?)$/, type: 'asset', generator: { emit: false } },
      ],
    },
    plugins: [new DefinePlugin({ __REMOTE_VERSION__: JSON.stringify(packageJson.version) })],
    optimization: { minimize: false, splitChunks: false },
    performance: { hints: false },
    stats: 'errors-warnings',
  };
}

/** A remote's container entry, named in its mf-manifest.json. */
const REMOTE_ENTRY = 'remoteEntry.js';

/** Text assets the static servers answer precompressed (docs/performance.md). */
const COMPRESSIBLE = /\.(js|mjs|css|html|json|svg|txt)$/;

/**
 * `.br` (quality 11) and `.gz` (level 9) beside every text asset, made once at build time so the
 * servers never compress on the fly. `remotes.json` and `site.json` are left out: each environment
 * mounts its own over the built file, and a stale compressed twin would be served in its place.
 */
function precompression() {
  const common = { test: COMPRESSIBLE, exclude: /(^|\/)(remotes|site)\.json$/, threshold: 0, minRatio: 0.9 };
  return [
    new CompressionPlugin({
      ...common,
      filename: '[path][base].gz',
      algorithm: 'gzip',
      compressionOptions: { level: 9 },
    }),
    new CompressionPlugin({
      ...common,
      filename: '[path][base].br',
      algorithm: 'brotliCompress',
      compressionOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } },
    }),
  ];
}

module.exports = { createWebpackConfig, createServerWebpackConfig, sharedDependencies };
