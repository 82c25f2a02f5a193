'use strict';

const HtmlWebpackPlugin = require('html-webpack-plugin');

const PLUGIN = 'EntryPriorityPlugin';

/**
 * Marks a host page's entry script `fetchpriority="high"`: it is the whole first screen's code (the shell's
 * bootstrap and its shared libraries are in it, shared-dependencies.cjs), needed as much as the stylesheet,
 * instead of a deferred script's low priority. Its stylesheet is the entry's own, which HtmlWebpackPlugin links.
 */
class EntryPriorityPlugin {
  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    compiler.hooks.compilation.tap(PLUGIN, (compilation) => {
      HtmlWebpackPlugin.getCompilationHooks(compilation).alterAssetTagGroups.tap(PLUGIN, (data) => {
        for (const tag of data.headTags) {
          if (tag.tagName === 'script' && tag.attributes.src) tag.attributes.fetchpriority = 'high';
        }
        return data;
      });
    });
  }
}

module.exports = { EntryPriorityPlugin };
