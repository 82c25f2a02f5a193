// Federation runtime plugin of the shell: puts the runtime the shell runs where a lean remote entry looks for
// it (lean-remote-entry-plugin.cjs), with its version, so the page holds one copy of it: the runtime's core,
// and the bundler runtime's functions that every container calls with its own `__webpack_require__`
// (provided-bundler-runtime.mjs takes them in a remote). Imported from the same files as the shell's own
// runtime imports them (the packages' ES modules), so it adds no second copy either; the package's own
// injection plugin imports the core's CommonJS build and added one (+9 KB brotli).
import * as runtimeCore from '@module-federation/runtime-core';
import { attachShareScopeMap, bundlerRuntime } from '@module-federation/webpack-bundler-runtime';

const CORE_GLOBAL = '_FEDERATION_RUNTIME_CORE';
const BUNDLER_GLOBAL = '_SHOP_FEDERATION_BUNDLER_RUNTIME';

/** @param {{ version: string }} options the version of the federation runtime built in (its packages share it) */
export default function provideRuntimeCore({ version }) {
  return {
    name: 'shop-provide-runtime-core',
    beforeInit(args) {
      if (!globalThis[CORE_GLOBAL]) {
        globalThis[CORE_GLOBAL] = runtimeCore;
        globalThis[`${CORE_GLOBAL}_FROM`] = { name: args.options.name, version };
      }
      globalThis[BUNDLER_GLOBAL] ??= { version, bundlerRuntime, attachShareScopeMap };
      return args;
    },
  };
}
