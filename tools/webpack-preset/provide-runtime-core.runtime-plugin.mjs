// Federation runtime plugin of the shell: puts the runtime's core the shell runs where a lean remote entry
// looks for it (lean-remote-entry-plugin.cjs), with its version, so the page holds one copy of it. Imported
// from the same file as the shell's own runtime imports it (the package's ES module), so it adds no second
// copy either; the package's own injection plugin imports the CommonJS build and added one (+9 KB brotli).
import * as runtimeCore from '@module-federation/runtime-core';

const CORE_GLOBAL = '_FEDERATION_RUNTIME_CORE';

/** @param {{ version: string }} options the version of @module-federation/runtime-core built in */
export default function provideRuntimeCore({ version }) {
  return {
    name: 'shop-provide-runtime-core',
    beforeInit(args) {
      if (!globalThis[CORE_GLOBAL]) {
        globalThis[CORE_GLOBAL] = runtimeCore;
        globalThis[`${CORE_GLOBAL}_FROM`] = { name: args.options.name, version };
      }
      return args;
    },
  };
}
