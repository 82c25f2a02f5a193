import { createRequire } from 'node:module';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const { wrap, FALLBACK_FILE, FALLBACKS } = require('./lean-remote-entry-plugin.cjs');

const ENTRY_URL = 'https://shop.test/remotes/catalog/1.0.0/remoteEntry.js';
const VERSION = '2.9.2';

/**
 * What webpack writes for a container built with `externalRuntime`, `library: { type: 'global' }` and the
 * provided bundler runtime, cut down: it reads the runtime's core and the bundler runtime from their globals
 * once, while it starts, and assigns `self.catalog`; its public path (`auto`) comes from
 * `document.currentScript`.
 */
const CONTAINER = `(()=>{const core=self._FEDERATION_RUNTIME_CORE;if(!core)throw new Error("no runtime core");
const bundler=self._SHOP_FEDERATION_BUNDLER_RUNTIME;if(!bundler)throw new Error("no bundler runtime");
const publicPath=document.currentScript?.src;
self.catalog={core,bundler,publicPath,init:async()=>"initialised",get:async(m)=>"factory of "+m}})();`;

/** A page: the wrapped entry runs in it as the script at ENTRY_URL; appended scripts are recorded, not run. */
function page() {
  const appended = [];
  // As in a browser, `currentScript` is a getter of the prototype: the script running now, else null.
  let running = null;
  const document = Object.create(
    Object.defineProperty({}, 'currentScript', { get: () => running, configurable: true }),
  );
  // Scripts in the page's head: appended ones are kept here, not run.
  const head = new Set();
  document.head = { append: (script) => (appended.push(script), head.add(script)) };
  document.createElement = () => {
    const script = { src: '', onload: undefined, onerror: undefined };
    script.remove = () => head.delete(script);
    return script;
  };
  const context = vm.createContext({ document, URL });
  const self = vm.runInContext('this', context);
  context.self = self;
  const runEntry = () => {
    running = { tagName: 'SCRIPT', src: ENTRY_URL };
    try {
      vm.runInContext(wrap(CONTAINER, { name: 'catalog', version: VERSION }).source(), context);
    } finally {
      running = null;
    }
  };
  return { self, document, appended, head, runEntry };
}

const shellCore = { from: 'the shell' };
const shellBundler = { from: 'the shell', version: VERSION };
const own = {
  core: { from: "the remote's own copy" },
  bundler: { from: "the remote's own copy", version: VERSION },
};

/** What the shell's runtime plugin puts on the page (provide-runtime-core.runtime-plugin.mjs). */
function shellProvides(self, { version = VERSION, bundler = true } = {}) {
  self._FEDERATION_RUNTIME_CORE = shellCore;
  self._FEDERATION_RUNTIME_CORE_FROM = { name: 'shell', version };
  if (bundler) self._SHOP_FEDERATION_BUNDLER_RUNTIME = { ...shellBundler, version };
}

/**
 * The entry, once called, asks for its own copy: one script, the fallback file beside remoteEntry.js. The file
 * runs, registering the core and the bundler runtime under their version (what the built file does), and loads.
 */
async function ownCopyLoads(self, appended) {
  await Promise.resolve();
  expect(appended.map((script) => script.src)).toEqual([new URL(FALLBACK_FILE, ENTRY_URL).href]);
  self[FALLBACKS] = { [VERSION]: own };
  appended[0].onload();
}

describe('the lean remote entry', () => {
  it('starts at once on the runtime the shell provided, of its version, and loads nothing more', async () => {
    const { self, appended, runEntry } = page();
    shellProvides(self);
    runEntry();
    expect(self.catalog.core).toBe(shellCore);
    expect(self.catalog.bundler).toEqual(shellBundler);
    expect(self.catalog.publicPath).toBe(ENTRY_URL);
    expect(await self.catalog.get('./HomePage')).toBe('factory of ./HomePage');
    expect(appended).toEqual([]);
    expect(self._FEDERATION_RUNTIME_CORE).toBe(shellCore);
  });

  it('run before the shell has started (an early script), starts on the shell’s core at the first call', async () => {
    const { self, appended, runEntry } = page();
    runEntry();
    shellProvides(self);
    expect(await self.catalog.init({}, [])).toBe('initialised');
    expect(self.catalog.core).toBe(shellCore);
    expect(self.catalog.bundler).toEqual(shellBundler);
    // Started late, it still resolves its files from where the entry was loaded.
    expect(self.catalog.publicPath).toBe(ENTRY_URL);
    expect(appended).toEqual([]);
  });

  it('under a shell that provides no core, loads its own copy from its folder first, and leaves no global or script behind', async () => {
    const { self, document, appended, head, runEntry } = page();
    runEntry();
    const factory = self.catalog.get('./ProductPage');
    await ownCopyLoads(self, appended);
    expect(await factory).toBe('factory of ./ProductPage');
    expect(self.catalog.core).toBe(own.core);
    expect(self.catalog.bundler).toBe(own.bundler);
    expect(self.catalog.publicPath).toBe(ENTRY_URL);
    expect(document.currentScript).toBeNull();
    expect('_FEDERATION_RUNTIME_CORE' in self).toBe(false);
    expect('_SHOP_FEDERATION_BUNDLER_RUNTIME' in self).toBe(false);
    // The page keeps the scripts it had: the fallback's element goes once it has run, as the runtime's do.
    expect(head.size).toBe(0);
  });

  it.each([
    {
      shell: 'of another version',
      provides: { version: '1.0.0' },
      bundlerLeft: { ...shellBundler, version: '1.0.0' },
    },
    // Every shell released before the bundler runtime was provided too: its core only, of this version.
    { shell: 'that provides the core alone', provides: { bundler: false }, bundlerLeft: undefined },
  ])(
    'under a shell $shell, takes its own runtime and gives the shell’s back',
    async ({ provides, bundlerLeft }) => {
      const { self, appended, runEntry } = page();
      shellProvides(self, provides);
      runEntry();
      const init = self.catalog.init({}, []);
      await ownCopyLoads(self, appended);
      expect(await init).toBe('initialised');
      expect(self.catalog.core).toBe(own.core);
      expect(self.catalog.bundler).toBe(own.bundler);
      expect(self._FEDERATION_RUNTIME_CORE).toBe(shellCore);
      expect(self._SHOP_FEDERATION_BUNDLER_RUNTIME).toEqual(bundlerLeft);
    },
  );

  it('fails the call, naming the file, when its own copy cannot be loaded', async () => {
    const { self, appended, runEntry } = page();
    runEntry();
    const init = self.catalog.init({}, []);
    await Promise.resolve();
    appended[0].onerror();
    await expect(init).rejects.toThrow(`catalog: ${new URL(FALLBACK_FILE, ENTRY_URL).href} did not load`);
  });
});
