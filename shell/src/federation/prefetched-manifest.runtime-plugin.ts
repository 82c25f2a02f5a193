import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { takePrefetchedCall } from '@shop/state/prefetch';

/**
 * Federation runtime plugin: a remote's mf-manifest.json that the shell's entry already asked for
 * (remote-preload.ts) is taken over instead of fetched a second time.
 */
export function prefetchedManifestPlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'shop-prefetched-manifest',
    fetch(url) {
      return takePrefetchedCall(url);
    },
  };
}
