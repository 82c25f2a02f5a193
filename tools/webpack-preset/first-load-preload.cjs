'use strict';

const HtmlWebpackPlugin = require('html-webpack-plugin');

const PLUGIN = 'FirstLoadPreloadPlugin';

/**
 * The chunks a host page loads before its first screen, beside its entry: the chunks of the entry's
 * asynchronous boundary (`import('./bootstrap')`) and, for every shared module those consume, the chunks of
 * the host's own copy. On a page's first load the host is the only provider in the share scope (remotes
 * register later), so the federation runtime fetches the chunk its provide module registered (the
 * consume's fallback only when nothing provides the key). Followed transitively (react-dom/client
 * consumes react).
 *
 * @param {import('webpack').Compilation} compilation
 * @param {string} entryName
 * @param {string} [extension] which of the chunks' files: their scripts (`.js`) or stylesheets (`.css`)
 * @returns {string[]} file names, relative to the output's public path
 */
function firstLoadChunkFiles(compilation, entryName, extension = '.js') {
  const { chunkGraph } = compilation;
  const entry = compilation.entrypoints.get(entryName);
  if (!entry) return [];
  /** share key → the async blocks that load the host's provided copies */
  const provided = new Map();
  for (const module of compilation.modules) {
    if (module.type !== 'provide-module') continue;
    const blocks = provided.get(module._name) ?? [];
    provided.set(module._name, [...blocks, ...module.blocks]);
  }
  const seen = new Set(entry.chunks);
  const queue = [...entry.chunks];
  const files = [];
  const addGroupOf = (block) => {
    const group = chunkGraph.getBlockChunkGroup(block);
    for (const chunk of group?.chunks ?? []) {
      if (seen.has(chunk)) continue;
      seen.add(chunk);
      queue.push(chunk);
      for (const file of chunk.files) if (file.endsWith(extension)) files.push(file);
    }
  };
  // The asynchronous boundary itself: the entry's own dynamic imports.
  for (const chunk of entry.chunks) {
    for (const module of chunkGraph.getChunkModulesIterable(chunk)) {
      if (module.type.startsWith('javascript/')) module.blocks.forEach(addGroupOf);
    }
  }
  // Every shared module a queued chunk consumes (the runtime loads them all before the chunk runs).
  while (queue.length > 0) {
    const chunk = queue.shift();
    for (const module of chunkGraph.getChunkModulesIterable(chunk)) {
      if (module.type !== 'consume-shared-module') continue;
      (provided.get(module.options.shareKey) ?? module.blocks).forEach(addGroupOf);
    }
  }
  return files;
}

/**
 * Marks the entry's own script high priority and adds `<link rel="preload" as="script">` for the chunks of the host's first load (above) to its page, so
 * they download beside the entry instead of one hop after it (the entry must run to ask for them). The
 * links match the `<script>` tags webpack's chunk loader adds later (same URL, no `crossorigin`), which
 * take the preloaded responses over.
 */
class FirstLoadPreloadPlugin {
  /** @param {{ entryName?: string }} [options] */
  constructor(options = {}) {
    this.entryName = options.entryName ?? 'main';
  }

  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    compiler.hooks.compilation.tap(PLUGIN, (compilation) => {
      HtmlWebpackPlugin.getCompilationHooks(compilation).alterAssetTagGroups.tap(PLUGIN, (data) => {
        const publicPath = data.publicPath;
        const size = (file) =>
          compilation.getAsset(file)?.info.size ?? compilation.getAsset(file)?.source.size() ?? 0;
        // Largest first, ahead of the entry: the first request takes the connection the page came on,
        // already past TCP's slow start, and the largest file gains most from it.
        const files = firstLoadChunkFiles(compilation, this.entryName).sort((a, b) => size(b) - size(a));
        const links = files.map((file) =>
          HtmlWebpackPlugin.createHtmlTagObject('link', {
            rel: 'preload',
            as: 'script',
            href: `${publicPath}${file}`,
          }),
        );
        // The entry is needed as much as they are: as high a priority, instead of a deferred script's low one.
        for (const tag of data.headTags) {
          if (tag.tagName === 'script' && tag.attributes.src) tag.attributes.fetchpriority = 'high';
        }
        // The first screen's stylesheets (extracted in production), linked so that the page paints styled,
        // before any script has run: a page the server rendered shows its content at once. Webpack's CSS
        // chunk loader finds these links by their URL and does not load them a second time.
        const stylesheets = firstLoadChunkFiles(compilation, this.entryName, '.css').map((file) =>
          HtmlWebpackPlugin.createHtmlTagObject('link', { rel: 'stylesheet', href: `${publicPath}${file}` }),
        );
        const firstScript = data.headTags.findIndex((tag) => tag.tagName === 'script' && tag.attributes.src);
        data.headTags.splice(
          firstScript === -1 ? data.headTags.length : firstScript,
          0,
          ...stylesheets,
          ...links,
        );
        return data;
      });
    });
  }
}

module.exports = { FirstLoadPreloadPlugin, firstLoadChunkFiles };
