'use strict';

// A remote's remoteEntry.js without its own copy of the federation runtime's core (about 9 KB brotli of
// 17 KB): it runs on the core the shell provides (`experiments.provideExternalRuntime`), and still runs under
// a shell that provides none (every shell released before this one) or another version of it, by loading
// the core built into the remote's own folder first. docs/performance.md, "First load of /".
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Compilation, sources } = require('webpack');

const PLUGIN = 'LeanRemoteEntryPlugin';
/** Where `experiments.externalRuntime` reads the core from, and where the shell's plugin puts it. */
const CORE_GLOBAL = '_FEDERATION_RUNTIME_CORE';
/** The remote's own copy of the core, beside remoteEntry.js; fetched only when the shell provides none. */
const FALLBACK_FILE = 'federation-runtime-core.js';
/** Each fallback core the page loaded, by version: `self[FALLBACKS][version]`. */
const FALLBACKS = '__SHOP_FEDERATION_RUNTIME_CORES';
const RUNTIME_CORE = '@module-federation/runtime-core';

/** The version of the installed runtime core (the package exports no package.json: read beside its dist/). */
function runtimeCoreVersion() {
  const packageFile = path.join(path.dirname(require.resolve(RUNTIME_CORE)), '..', 'package.json');
  return JSON.parse(fs.readFileSync(packageFile, 'utf8')).version;
}

/**
 * The code around the (minified) container. `run` is the container as webpack wrote it: it reads the core
 * from `self._FEDERATION_RUNTIME_CORE` once, while it starts, and assigns `self[name]`. When the shell's core
 * is there and of this version, the container starts at once. Otherwise `self[name]` is a stand-in whose
 * `init` and `get` (the only calls a host makes, both awaited by every federation runtime and by webpack's
 * own) start the container first, on the shell's core if it arrived meanwhile (this script runs as soon as
 * it arrives, often before the shell's code), else on the fallback core. A container started late resolves
 * its public path (`auto`) from this script's address, kept here while `document.currentScript` still names it.
 */
function wrap(container, { name, version }) {
  const json = JSON.stringify;
  const prefix = `(()=>{const name=${json(name)},version=${json(version)},core=${json(CORE_GLOBAL)},d=document,base=d.currentScript?.src;
const provided=()=>self[core]&&self[core+"_FROM"]?.version===version?self[core]:self[${json(FALLBACKS)}]?.[version];
const run=()=>{`;
  const suffix = `};
const start=(runtime,late)=>{const had=Object.hasOwn(self,core),before=self[core];self[core]=runtime;if(late)Object.defineProperty(d,"currentScript",{configurable:true,value:{tagName:"SCRIPT",src:base}});
try{run()}finally{if(late)delete d.currentScript;if(had)self[core]=before;else delete self[core]}return self[name]};
const now=provided();if(now){start(now,false);return}
const fallback=()=>new Promise((resolve,reject)=>{const s=d.createElement("script");s.src=new URL(${json(FALLBACK_FILE)},base).href;s.onload=()=>{s.remove();resolve()};s.onerror=()=>{s.remove();reject(new Error(name+": "+s.src+" did not load"))};d.head.append(s)});
let started;const container=()=>started??=(provided()?Promise.resolve():fallback()).then(()=>start(provided(),true));
self[name]={init:(...args)=>container().then(c=>c.init(...args)),get:(...args)=>container().then(c=>c.get(...args))};
})();`;
  return new sources.ConcatSource(prefix, container, suffix);
}

/**
 * The fallback core as a classic script: the installed `@module-federation/runtime-core`, registered under
 * its version in `self[FALLBACKS]`. Built once per compilation with the webpack of the build.
 */
async function buildFallbackCore(webpack, mode, version) {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'federation-runtime-core-'));
  const entry = path.join(workDir, 'entry.mjs');
  const coreFile = path.join(path.dirname(require.resolve(RUNTIME_CORE)), 'index.js');
  fs.writeFileSync(
    entry,
    `import * as core from ${JSON.stringify(coreFile)};\n` +
      `(self[${JSON.stringify(FALLBACKS)}] ??= {})[${JSON.stringify(version)}] = core;\n`,
  );
  try {
    const stats = await new Promise((resolve, reject) => {
      webpack(
        {
          mode,
          context: __dirname,
          entry,
          target: 'web',
          devtool: false,
          output: { path: path.join(workDir, 'dist'), filename: FALLBACK_FILE, iife: true },
          resolve: { modules: [path.resolve(__dirname, '..', '..', 'node_modules'), 'node_modules'] },
          plugins: [new webpack.DefinePlugin({ ENV_TARGET: JSON.stringify('web') })],
          performance: { hints: false },
          stats: 'errors-only',
        },
        (error, result) => (error ? reject(error) : resolve(result)),
      );
    });
    if (stats.hasErrors()) throw new Error(stats.toString('errors-only'));
    return fs.readFileSync(path.join(workDir, 'dist', FALLBACK_FILE));
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

/** For a remote built with `experiments.externalRuntime: true` and `library: { type: 'global' }`. */
class LeanRemoteEntryPlugin {
  /** @param {{ name: string, filename: string }} options the container's global name and file */
  constructor(options) {
    this.name = options.name;
    this.filename = options.filename;
    this.version = runtimeCoreVersion();
  }

  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    compiler.hooks.thisCompilation.tap(PLUGIN, (compilation) => {
      compilation.hooks.processAssets.tapPromise(
        { name: PLUGIN, stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        async () => {
          const code = await buildFallbackCore(compiler.webpack, compiler.options.mode, this.version);
          compilation.emitAsset(FALLBACK_FILE, new sources.RawSource(code));
        },
      );
      // After minification (the wrapper is written small by hand), before source maps and compression.
      compilation.hooks.processAssets.tap(
        { name: PLUGIN, stage: Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_SIZE + 1 },
        () => {
          if (!compilation.getAsset(this.filename))
            throw new Error(`${PLUGIN}: the build has no ${this.filename}`);
          compilation.updateAsset(this.filename, (source) =>
            wrap(source, { name: this.name, version: this.version }),
          );
        },
      );
    });
  }
}

/** The shell's runtime plugin that provides its core to lean remote entries, with its options. */
function provideRuntimeCorePlugin() {
  return [require.resolve('./provide-runtime-core.runtime-plugin.mjs'), { version: runtimeCoreVersion() }];
}

module.exports = { LeanRemoteEntryPlugin, provideRuntimeCorePlugin, wrap, FALLBACK_FILE, FALLBACKS };
