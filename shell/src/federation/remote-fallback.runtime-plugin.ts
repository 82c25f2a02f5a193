import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import type { RemoteComponentModule } from './remote-registry';
import { RemoteUnavailable } from './remote-unavailable';

/**
 * Federation runtime plugin: when a remote cannot be loaded (server down, manifest or chunk missing), answer a
 * stand-in screen instead of failing the page.
 */
export function remoteFallbackPlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'shop-remote-fallback',
    errorLoadRemote({ id, error, lifecycle }) {
      // Earlier stages (manifest, shared negotiation) must let the error travel on: what they return is taken
      // as a manifest or a container. The final 'onLoad' stage answers the module the route will render.
      if (lifecycle !== 'onLoad') return undefined;
      console.error(`Remote module "${id}" could not be loaded`, error);
      const standIn: RemoteComponentModule = { default: RemoteUnavailable, remoteUnavailable: true };
      return standIn;
    },
  };
}
