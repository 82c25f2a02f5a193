import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { takeStartedRemoteScript } from './early-remote-scripts';

type RemoteEntryExports = NonNullable<
  Awaited<ReturnType<NonNullable<ModuleFederationRuntimePlugin['loadEntry']>>>
>;

/**
 * Federation runtime plugin: a remote entry the page started itself (early-remote-scripts.ts) is waited for and
 * its container taken from the global it defined, instead of a second script for the same file. When the early
 * script failed or defined nothing, the runtime loads the entry its own way.
 */
export function earlyRemoteEntryPlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'shop-early-remote-entry',
    async loadEntry({ remoteInfo }) {
      const started = takeStartedRemoteScript(remoteInfo.entry);
      if (!started) return undefined;
      await started;
      const container: unknown = (globalThis as Record<string, unknown>)[remoteInfo.entryGlobalName];
      return typeof container === 'object' && container !== null
        ? (container as RemoteEntryExports)
        : undefined;
    },
  };
}
