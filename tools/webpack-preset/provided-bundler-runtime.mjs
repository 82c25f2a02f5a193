// What a lean remote entry's container starts with in place of `@module-federation/webpack-bundler-runtime`
// (lean-remote-entry-plugin.cjs puts this module where the federation plugin imports the package): the
// bundler runtime's functions come from the page, the shell's own copy or the remote's fallback file, both
// of this version, which the lean entry sets on the global below while the container starts. They are
// stateless (each call is given the container's `__webpack_require__`), so one copy serves every container.
// What is the container's own stays its own: its runtime layer (its federation instance) and its share map.
import * as runtime from '@module-federation/runtime';
// A shell exposes nothing, so its build drops this one (FEDERATION_HAS_EXPOSES): the remote keeps its own.
import { initContainerEntry } from '@module-federation/webpack-bundler-runtime/dist/initContainerEntry.js';

const BUNDLER_GLOBAL = '_SHOP_FEDERATION_BUNDLER_RUNTIME';

const provided = globalThis[BUNDLER_GLOBAL];
if (!provided)
  throw new Error(`${BUNDLER_GLOBAL} is not on the page: a lean remote entry starts its container`);

export default {
  runtime,
  instance: undefined,
  initOptions: undefined,
  bundlerRuntime: { ...provided.bundlerRuntime, initContainerEntry, S: {} },
  attachShareScopeMap: provided.attachShareScopeMap,
  bundlerRuntimeOptions: {},
};
