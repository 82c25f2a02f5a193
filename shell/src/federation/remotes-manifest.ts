/** Remotes the shell knows how to place on its routes. */
export const REMOTE_NAMES = ['catalog', 'checkout', 'admin'] as const;
export type RemoteName = (typeof REMOTE_NAMES)[number];

/** remotes.json: remote name → URL of its mf-manifest.json (absolute, or relative to the page). */
export type RemotesManifest = Partial<Record<RemoteName, string>>;

/** Where the shell's static server answers the manifest (no-store: it changes per environment, not per build). */
export const REMOTES_MANIFEST_URL = '/remotes.json';

/** Keeps the known remotes with a non-empty URL; throws when the document is not an object. */
export function parseRemotesManifest(raw: unknown): RemotesManifest {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new Error('remotes.json must be an object of remote name → manifest URL');
  }
  const manifest: RemotesManifest = {};
  for (const name of REMOTE_NAMES) {
    const url = (raw as Record<string, unknown>)[name];
    if (typeof url === 'string' && url.trim() !== '') manifest[name] = url.trim();
  }
  return manifest;
}

/** The remote part of a federated module id ('catalog/HomePage' → 'catalog'). */
export function remoteNameOf(id: string): RemoteName | undefined {
  const name = id.split('/')[0];
  return REMOTE_NAMES.find((known) => known === name);
}
