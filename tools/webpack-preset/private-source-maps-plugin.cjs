'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { Compilation } = require('webpack');

const PLUGIN = 'PrivateSourceMapsPlugin';

/**
 * Takes the production source maps out of the served build: every `.map` asset is dropped from the output
 * (so `dist/`, the folder the static servers and the images serve, never holds one) and written to `dir`
 * instead, which nothing serves. The maps are made with `hidden-source-map`, so no script names them either.
 * Where the maps go and how the team uses them: docs/performance.md, "Compressed delivery".
 */
class PrivateSourceMapsPlugin {
  /** @param {{ dir: string }} options absolute folder for this build's maps (emptied on every build) */
  constructor(options) {
    this.dir = options.dir;
  }

  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    /** @type {Map<string, Buffer>} */
    const maps = new Map();
    compiler.hooks.thisCompilation.tap(PLUGIN, (compilation) => {
      maps.clear();
      compilation.hooks.processAssets.tap(
        // After every other stage (compression included), so nothing reads a map after it is taken.
        { name: PLUGIN, stage: Compilation.PROCESS_ASSETS_STAGE_REPORT + 1 },
        (assets) => {
          for (const name of Object.keys(assets)) {
            if (!name.endsWith('.map')) continue;
            maps.set(name, compilation.getAsset(name).source.buffer());
            compilation.deleteAsset(name);
          }
        },
      );
    });
    compiler.hooks.afterEmit.tap(PLUGIN, () => {
      fs.rmSync(this.dir, { recursive: true, force: true });
      for (const [name, content] of maps) {
        const file = path.join(this.dir, name);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, content);
      }
    });
  }
}

module.exports = { PrivateSourceMapsPlugin };
