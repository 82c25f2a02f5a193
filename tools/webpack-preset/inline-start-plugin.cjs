'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const HtmlWebpackPlugin = require('html-webpack-plugin');

const PLUGIN = 'InlineStartPlugin';

/**
 * Builds one module on its own (no federation runtime, no chunks: a bare IIFE) with the host's loaders and
 * resolution, and answers its code.
 *
 * @param {import('webpack').Compiler} compiler the host's compiler (its webpack, mode, loaders, resolve)
 * @param {string} entry the module, relative to the host's context
 * @returns {Promise<string>}
 */
async function buildInlineScript(compiler, entry) {
  const { webpack } = compiler;
  const { options } = compiler;
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inline-start-'));
  try {
    const stats = await new Promise((resolve, reject) => {
      webpack(
        {
          mode: options.mode,
          context: options.context,
          entry: { start: entry },
          target: 'web',
          devtool: false,
          output: { path: outDir, filename: '[name].js', iife: true, uniqueName: 'shop_inline_start' },
          resolve: options.resolve,
          module: { rules: options.module.rules },
          performance: { hints: false },
          stats: 'errors-only',
        },
        (error, result) => (error ? reject(error) : resolve(result)),
      );
    });
    if (stats.hasErrors()) throw new Error(stats.toString('errors-only'));
    return fs.readFileSync(path.join(outDir, 'start.js'), 'utf8');
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}

/**
 * Writes a module into the host page's head as an inline `<script>`, ahead of every other tag, so it runs as
 * soon as the HTML is parsed instead of after a script file has travelled (shell/src/first-screen/early-start.ts
 * starts the first screen's downloads that way).
 */
class InlineStartPlugin {
  /** @param {{ entry: string }} options the module, relative to the host's context */
  constructor(options) {
    this.entry = options.entry;
  }

  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    let code = '';
    compiler.hooks.beforeCompile.tapPromise(PLUGIN, async () => {
      code = await buildInlineScript(compiler, this.entry);
    });
    compiler.hooks.compilation.tap(PLUGIN, (compilation) => {
      // Watch mode rebuilds the page when the module itself changes (not when only what it imports does).
      compilation.fileDependencies.add(path.resolve(compiler.options.context, this.entry));
      HtmlWebpackPlugin.getCompilationHooks(compilation).alterAssetTagGroups.tap(PLUGIN, (data) => {
        // `</script` inside the code would end the element early.
        const safe = code.trim().replace(/<\/(script)/gi, '<\\/$1');
        data.headTags.unshift(HtmlWebpackPlugin.createHtmlTagObject('script', {}, safe));
        return data;
      });
    });
  }
}

module.exports = { InlineStartPlugin, buildInlineScript };
