import { prefetchCall, readPrefetchedJson } from '@shop/state/prefetch';
import { addPreloadLink } from '../first-screen/preload-link';
import { startRemoteScript } from './early-remote-scripts';
import { renderedRemoteVersions } from '../first-screen/rendered-attribute';
import {
  REMOTES_MANIFEST_URL,
  parseRemotesManifest,
  pinnedToRendered,
  type RemoteLocation,
  type RemoteName,
} from './remotes-manifest';

/**
 * Where one remote's mf-manifest.json is, absolute: the federation runtime resolves the remote's files
 * against it, and the prefetched answer is found under it (prefetched-manifest.runtime-plugin.ts).
 */
export function remoteManifestUrl(location: RemoteLocation): string {
  return new URL(location.url, window.location.href).href;
}

/**
 * The scripts the federation runtime loads for one exposed module (`./HomePage`), read from the remote's
 * mf-manifest.json as the runtime reads it: its remoteEntry, then the module's own chunks, all under the
 * remote's public path (`auto`: the manifest's folder). None when the manifest does not say (a public path
 * computed by code, an unknown module): a hint is an optimisation, never a guess.
 */
export function remoteScriptUrls(manifest: unknown, manifestUrl: string, expose: string): string[] {
  const { metaData, exposes } = (manifest ?? {}) as { metaData?: unknown; exposes?: unknown };
  const { publicPath, remoteEntry } = (metaData ?? {}) as { publicPath?: unknown; remoteEntry?: unknown };
  const { name, path } = (remoteEntry ?? {}) as { name?: unknown; path?: unknown };
  if (typeof publicPath !== 'string' || typeof name !== 'string' || name === '') return [];
  const module = Array.isArray(exposes)
    ? (exposes as { path?: unknown; assets?: { js?: { sync?: unknown } } }[]).find((e) => e?.path === expose)
    : undefined;
  const sync = module?.assets?.js?.sync;
  if (!Array.isArray(sync) || !sync.every((file): file is string => typeof file === 'string')) return [];
  const base =
    publicPath === 'auto' || publicPath === ''
      ? new URL('.', manifestUrl)
      : new URL(publicPath, window.location.href);
  // Joined as the runtime joins them: `path` is a folder under the public path ('', '.', 'js/' or '/js').
  const folder = typeof path === 'string' ? path.replace(/^\.?\/+/, '').replace(/\/+$/, '') : '';
  const entry = folder === '' || folder === '.' ? name : `${folder}/${name}`;
  return [entry, ...sync].map((file) => new URL(file, base).href);
}

/**
 * Whether the remote's entry is a classic script that only defines its container as a global (`type: global`):
 * then it and its chunks can run as soon as they arrive, before the shell's code has started
 * (early-remote-scripts.ts).
 */
export function runsOnArrival(manifest: unknown): boolean {
  const { metaData } = (manifest ?? {}) as { metaData?: { remoteEntry?: { type?: unknown } } };
  return metaData?.remoteEntry?.type === 'global';
}

/**
 * As soon as the prefetched remotes.json has arrived, fetches the remote's mf-manifest.json (for the runtime
 * to take over) and starts the scripts of one of its exposed modules (its entry, then the module's own
 * chunks: run on arrival when they can be, else preloaded), so they download beside the shell's own code
 * instead of after it has started. Settles once the hints are placed; any failure only leaves them out.
 */
export async function preloadRemoteModule(remote: RemoteName, expose: string): Promise<void> {
  await readPrefetchedJson(REMOTES_MANIFEST_URL)
    ?.then(async (raw) => {
      const named = raw === undefined ? {} : parseRemotesManifest(raw);
      const location = pinnedToRendered(named, renderedRemoteVersions())[remote];
      if (!location) return;
      const manifestUrl = remoteManifestUrl(location);
      prefetchCall(manifestUrl);
      const manifest = await readPrefetchedJson(manifestUrl);
      const scripts = remoteScriptUrls(manifest, manifestUrl, expose);
      const onArrival = runsOnArrival(manifest);
      for (const href of scripts)
        if (onArrival) startRemoteScript(href);
        else addPreloadLink({ as: 'script', href });
    })
    .catch(() => undefined);
}
