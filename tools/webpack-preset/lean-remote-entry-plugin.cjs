'use strict';

// A remote's remoteEntry.js without its own copy of the federation runtime (about 13 KB brotli of 17 KB): it
// runs on the runtime the shell provides, its core (`experiments.externalRuntime`) and the bundler runtime's
// functions (provided-bundler-runtime.mjs), and still runs under a shell that provides none (every shell
// released before these) or another version of it, by loading the runtime built into the remote's own folder
// first. docs/performance.md, "First load of /".
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Compilation, sources } = require('webpack');

const PLUGIN = 'LeanRemoteEntryPlugin';
/** Where `experiments.externalRuntime` reads the core from, and where the shell's plugin puts it. */
const CORE_GLOBAL = '_FEDERATION_RUNTIME_CORE';
/** Where provided-bundler-runtime.mjs reads the bundler runtime from, and where the shell's plugin puts it. */
const BUNDLER_GLOBAL = '_SHOP_FEDERATION_BUNDLER_RUNTIME';
/** The remote's own copy of the runtime, beside remoteEntry.js; fetched only when the shell provides none. */
const FALLBACK_FILE = 'federation-runtime-core.js';
/**
 * Each fallback runtime the page loaded, by version: `self[FALLBACKS][version]` is `{ core, bundler }`.
 * (Remotes built before the bundler runtime was provided too registered the core alone, under another name.)
 */
const FALLBACKS = '__SHOP_FEDERATION_RUNTIMES';
const RUNTIME_CORE = '@module-federation/runtime-core';
const BUNDLER_RUNTIME = '@module-federation/webpack-bundler-runtime';
/** The import of the bundler runtime that the federation plugin writes into a container's start. */
const BUNDLER_RUNTIME_IMPORT = /[\\/]webpack-bundler-runtime[\\/]dist[\\/]bundler\.js$/;
const PROVIDED_BUNDLER_RUNTIME = path.join(__dirname, 'provided-bundler-runtime.mjs');

/** An installed package's version (these packages export no package.json: read beside their dist/). */
function installedVersion(name) {
  const packageFile = path.join(path.dirname(require.resolve(name)), '..', 'package.json');
  return JSON.parse(fs.readFileSync(packageFile, 'utf8')).version;
}

/** The version of the federation runtime built in: its core and its bundler runtime are released together. */
function runtimeVersion() {
  const core = installedVersion(RUNTIME_CORE);
  const bundler = installedVersion(BUNDLER_RUNTIME);
  if (core !== bundler)
    throw new Error(
      `${PLUGIN}: ${RUNTIME_CORE} ${core} and ${BUNDLER_RUNTIME} ${bundler} are not one release`,
    );
  return core;
}

/**
 * The code around the (minified) container. `run` is the container as webpack wrote it: while it starts, it
 * reads the core from `self._FEDERATION_RUNTIME_CORE` and the bundler runtime from
 * `self._SHOP_FEDERATION_BUNDLER_RUNTIME`, once, and assigns `self[name]`. When the shell provided both, of this
 * version, the container starts at once. Otherwise `self[name]` is a stand-in whose `init` and `get` (the only
 * calls a host makes, both awaited by every federation runtime and by webpack's own) start the container
 * first, on the shell's runtime if it arrived meanwhile (this script runs as soon as it arrives, often before
 * the shell's code), else on the fallback's. A container started late resolves its public path (`auto`) from
 * this script's address, kept here while `document.currentScript` still names it.
 */
function wrap(container, { name, version }) {
  const json = JSON.stringify;
  const prefix = `(()=>{const name=${json(name)},version=${json(version)},core=${json(CORE_GLOBAL)},bundler=${json(BUNDLER_GLOBAL)},d=document,base=d.currentScript?.src;
const provided=()=>self[core]&&self[core+"_FROM"]?.version===version&&self[bundler]?.version===version?{core:self[core],bundler:self[bundler]}:self[${json(FALLBACKS)}]?.[version];
const run=()=>{`;
  const suffix = `};
const start=(runtime,late)=>{const kept=[core,bundler].map(key=>[key,Object.hasOwn(self,key),self[key]]);self[core]=runtime.core;self[bundler]=runtime.bundler;if(late)Object.defineProperty(d,"currentScript",{configurable:true,value:{tagName:"SCRIPT",src:base}});
try{run()}finally{if(late)delete d.currentScript;for(const[key,had,before]of kept)if(had)self[key]=before;else delete self[key]}return self[name]};
const now=provided();if(now){start(now,false);return}
const fallback=()=>new Promise((resolve,reject)=>{const s=d.createElement("script");s.src=new URL(${json(FALLBACK_FILE)},base).href;s.onload=()=>{s.remove();resolve()};s.onerror=()=>{s.remove();reject(new Error(name+": "+s.src+" did not load"))};d.head.append(s)});
let started;const container=()=>started??=(provided()?Promise.resolve():fallback()).then(()=>start(provided(),true));
self[name]={init:(...args)=>container().then(c=>c.init(...args)),get:(...args)=>container().then(c=>c.get(...args))};
})();`;
  return new sources.ConcatSource(prefix, container, suffix);
}

/**
 * The fallback runtime as a classic script: the installed `@module-federation/runtime-core` and the bundler
 * runtime's functions, registered under their version in `self[FALLBACKS]`. Built once per compilation with the
 * webpack of the build.
 */
async function buildFallbackRuntime(webpack, mode, version) {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'federation-runtime-core-'));
  const entry = path.join(workDir, 'entry.mjs');
  const coreFile = path.join(path.dirname(require.resolve(RUNTIME_CORE)), 'index.js');
  fs.writeFileSync(
    entry,
    `import * as core from ${JSON.stringify(coreFile)};\n` +
      `import { attachShareScopeMap, bundlerRuntime } from ${JSON.stringify(BUNDLER_RUNTIME)};\n` +
      `const bundler = { version: ${JSON.stringify(version)}, bundlerRuntime, attachShareScopeMap };\n` +
      `(self[${JSON.stringify(FALLBACKS)}] ??= {})[${JSON.stringify(version)}] ??= { core, bundler };\n`,
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
    this.version = runtimeVersion();
  }

  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    // The container starts on the bundler runtime the page provides, not on a copy of its own.
    new compiler.webpack.NormalModuleReplacementPlugin(
      BUNDLER_RUNTIME_IMPORT,
      PROVIDED_BUNDLER_RUNTIME,
    ).apply(compiler);
    compiler.hooks.thisCompilation.tap(PLUGIN, (compilation) => {
      compilation.hooks.processAssets.tapPromise(
        { name: PLUGIN, stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        async () => {
          const code = await buildFallbackRuntime(compiler.webpack, compiler.options.mode, this.version);
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

/** The shell's runtime plugin that provides its runtime to lean remote entries, with its options. */
function provideRuntimeCorePlugin() {
  return [require.resolve('./provide-runtime-core.runtime-plugin.mjs'), { version: runtimeVersion() }];
}

module.exports = { LeanRemoteEntryPlugin, provideRuntimeCorePlugin, wrap, FALLBACK_FILE, FALLBACKS };
