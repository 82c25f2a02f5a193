'use strict';

// Builds the first-load floor (first-load-floor/entry.mjs) with the installed versions and the webpack and
// federation runtime the front-ends use, and answers its size compressed as the static servers send it.
// The byte budget of the first load of `/` is a multiple of this floor (docs/performance.md), so both sides
// are measured from the same versions in the same run.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');
const webpack = require('webpack');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');

/**
 * @returns {Promise<{ gzipBytes: number, brotliBytes: number, files: string[] }>}
 */
async function buildFirstLoadFloor() {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'first-load-floor-'));
  try {
    const stats = await new Promise((resolve, reject) => {
      webpack(
        {
          mode: 'production',
          context: __dirname,
          entry: { main: './first-load-floor/entry.mjs' },
          output: { path: outDir, filename: '[name].js', chunkFilename: '[name].js' },
          resolve: { conditionNames: ['source', '...'] },
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
    return { gzipBytes, brotliBytes, files };
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}

module.exports = { buildFirstLoadFloor };
