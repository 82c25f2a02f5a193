'use strict';

// Builds the first-load floor with the installed versions and the webpack and federation runtime the
// front-ends use, and answers its size compressed as the static servers send it. The byte budget of the
// first load of `/` is measured against this floor (docs/performance.md), so both sides come from the same
// versions in the same run.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');
const webpack = require('webpack');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');

/**
 * The shared libraries the first screen of `/` runs, by the key the page shares each under, with what the
 * floor bundles for it: each whole (a module shared through Module Federation cannot be tree-shaken, any
 * consumer may use any export), and for `react-router-dom` the subset the storefront shares
 * (shared-react-router-dom.mjs), which is what the page ships. Nothing the page defers: react-toastify and
 * the dialogs load later, by themselves or when reached for. e2e/tests/first-load.spec.ts checks that the
 * page's first screen loads exactly these keys.
 */
const FIRST_SCREEN_SHARED = {
  react: 'react',
  'react/jsx-runtime': 'react/jsx-runtime',
  'react-dom': 'react-dom',
  'react-dom/client': 'react-dom/client',
  'react-router-dom': require.resolve('./shared-react-router-dom.mjs'),
  jotai: 'jotai',
  'jotai/vanilla/utils': 'jotai/vanilla/utils',
};

/** Where packages are found from this folder: tools' own node_modules, then the workspace's. */
const PACKAGE_FOLDERS = [
  path.resolve(__dirname, 'node_modules'),
  path.resolve(__dirname, '..', '..', 'node_modules'),
];

/** The floor's one module: every library above, kept alive through a global so the minifier drops nothing. */
function floorEntry() {
  const requests = Object.values(FIRST_SCREEN_SHARED);
  return [
    ...requests.map((request, index) => `import * as m${index} from ${JSON.stringify(request)};`),
    `globalThis.__firstLoadFloor = [${requests.map((_, index) => `m${index}`).join(', ')}];`,
  ].join('\n');
}

/**
 * @returns {Promise<{ gzipBytes: number, brotliBytes: number, files: string[], shared: string[] }>}
 */
async function buildFirstLoadFloor() {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'first-load-floor-'));
  const outDir = path.join(workDir, 'dist');
  const entry = path.join(workDir, 'entry.mjs');
  fs.writeFileSync(entry, floorEntry());
  try {
    const stats = await new Promise((resolve, reject) => {
      webpack(
        {
          mode: 'production',
          context: __dirname,
          entry: { main: entry },
          output: { path: outDir, filename: '[name].js', chunkFilename: '[name].js' },
          // The entry lives in a temporary folder: packages resolve as they would from this folder.
          resolve: { conditionNames: ['source', '...'], modules: PACKAGE_FOLDERS },
          plugins: [
            // A host without remotes or shared modules: the runtime alone, as lean as the shell's.
            new ModuleFederationPlugin({
              name: 'floor',
              remotes: {},
              shared: {},
              experiments: { optimization: { target: 'web' } },
              manifest: false,
              dts: false,
              dev: false,
            }),
          ],
          performance: { hints: false },
          stats: 'errors-only',
        },
        (error, result) => (error ? reject(error) : resolve(result)),
      );
    });
    if (stats.hasErrors()) throw new Error(stats.toString('errors-only'));
    const files = fs.readdirSync(outDir).filter((name) => name.endsWith('.js'));
    let gzipBytes = 0;
    let brotliBytes = 0;
    for (const name of files) {
      const content = fs.readFileSync(path.join(outDir, name));
      // The same settings as the front-ends' precompressed files (create-webpack-config.cjs).
      gzipBytes += zlib.gzipSync(content, { level: 9 }).length;
      brotliBytes += zlib.brotliCompressSync(content, {
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 },
      }).length;
    }
    return { gzipBytes, brotliBytes, files, shared: Object.keys(FIRST_SCREEN_SHARED) };
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

module.exports = { buildFirstLoadFloor, FIRST_SCREEN_SHARED };
