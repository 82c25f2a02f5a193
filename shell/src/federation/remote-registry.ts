import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { isAdminAtom, shopStore } from '@shop/state';
import { takePrefetchedCall } from '@shop/state/prefetch';
import type { ComponentType } from 'react';
import { renderedRemoteVersions } from '../first-screen/rendered-attribute';
import {
  REMOTES_MANIFEST_URL,
  parseRemotesManifest,
  pinnedToRendered,
  remoteNameOf,
  type RemoteName,
  type RemotesManifest,
} from './remotes-manifest';
import { remoteManifestUrl } from './remote-preload';

/** What an exposed screen module looks like: a default-exported component. */
export interface RemoteComponentModule {
  default: ComponentType;
  /** Set on the stand-in the fallback runtime plugin answers when the remote could not be loaded. */
  remoteUnavailable?: true;
}

let manifestRequest: Promise<RemotesManifest> | undefined;
const registered = new Set<RemoteName>();
// Remotes whose last load failed: the runtime keeps a failed remote's manifest and entry cached, so the
// next attempt registers it again with `force`, which drops that cache and fetches afresh.
const failed = new Set<RemoteName>();
let stopWatchingAdmin: (() => void) | undefined;

function fetchManifest(): Promise<RemotesManifest> {
  // The shell's entry started the first one while this code was still loading (index.ts).
  manifestRequest ??= (
    takePrefetchedCall(REMOTES_MANIFEST_URL) ??
    fetch(REMOTES_MANIFEST_URL, { cache: 'no-store', headers: { Accept: 'application/json' } })
  )
    .then(async (response) => {
      if (!response.ok) throw new Error(`${REMOTES_MANIFEST_URL} answered ${response.status}`);
      return pinnedToRendered(parseRemotesManifest(await response.json()), renderedRemoteVersions());
    })
    .catch((error: unknown) => {
      // Forget the failure so the next screen (or Retry) asks again.
      manifestRequest = undefined;
      throw error;
    });
  return manifestRequest;
}

function register(manifest: RemotesManifest, name: RemoteName): void {
  if (registered.has(name) && !failed.has(name)) return;
  const location = manifest[name];
  if (!location) throw new Error(`remotes.json has no entry for "${name}"`);
  // Absolute, so the runtime resolves the remote's chunks against the manifest's own location: the
  // versioned folder of that build, which stays put while other versions are published beside it.
  registerRemotes([{ name, entry: remoteManifestUrl(location) }], {
    force: failed.has(name),
  });
  registered.add(name);
  failed.delete(name);
}

/**
 * Reads remotes.json and registers the shopper remotes; the admin remote only once the signed-in user is an
 * admin, so a shopper's browser never fetches anything of it.
 */
export async function startRemotes(): Promise<void> {
  try {
    const manifest = await fetchManifest();
    register(manifest, 'catalog');
    register(manifest, 'checkout');
  } catch (error) {
    // Each remote screen reports its own failure; the layout keeps working.
    console.error('Could not read the remotes manifest', error);
  }
  stopWatchingAdmin ??= shopStore.sub(isAdminAtom, () => {
    if (shopStore.get(isAdminAtom)) void ensureRegistered('admin').catch(() => undefined);
  });
  if (shopStore.get(isAdminAtom)) await ensureRegistered('admin').catch(() => undefined);
}

async function ensureRegistered(name: RemoteName): Promise<void> {
  if (registered.has(name) && !failed.has(name)) return;
  if (name === 'admin' && !shopStore.get(isAdminAtom))
    throw new Error('The admin screens are for admins only');
  register(await fetchManifest(), name);
}

/** Loads an exposed screen ('catalog/HomePage'), registering its remote first if needed. */
export async function loadRemoteComponent(id: string): Promise<RemoteComponentModule> {
  const name = remoteNameOf(id);
  if (!name) throw new Error(`Unknown remote in "${id}"`);
  await ensureRegistered(name);
  const module = await loadRemote<RemoteComponentModule>(id).catch((error: unknown) => {
    failed.add(name);
    throw error;
  });
  if (module?.remoteUnavailable) failed.add(name);
  if (!module || typeof module.default !== 'function') throw new Error(`"${id}" has no default component`);
  return module;
}
