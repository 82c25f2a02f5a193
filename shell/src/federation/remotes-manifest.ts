/** Remotes the shell knows how to place on its routes. */
const REMOTE_NAMES = ['catalog', 'checkout', 'admin'] as const;
export type RemoteName = (typeof REMOTE_NAMES)[number];

/** Where one remote's build is: its mf-manifest.json (absolute, or relative to the page), and its version. */
export interface RemoteLocation {
  url: string;
  /** Absent in the flat shape, which names URLs only. */
  version?: string;
}

/** remotes.json, read: remote name → where its build is. */
export type RemotesManifest = Partial<Record<RemoteName, RemoteLocation>>;

/** Where the shell's static server answers the manifest (no-store: it changes per environment, not per build). */
export const REMOTES_MANIFEST_URL = '/remotes.json';

const nonEmpty = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/**
 * One remote's entry of schema 2: `{ "version": "0.2.0", "url": "/remotes/catalog/0.2.0/mf-manifest.json" }`.
 * Without a URL, the version alone names the build at its conventional path behind the gateway.
 */
function locationOf(name: RemoteName, entry: unknown): RemoteLocation | undefined {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return undefined;
  const { url, version } = entry as Record<string, unknown>;
  const knownVersion = nonEmpty(version);
  const knownUrl =
    nonEmpty(url) ??
    (knownVersion ? `/remotes/${name}/${encodeURIComponent(knownVersion)}/mf-manifest.json` : undefined);
  if (!knownUrl) return undefined;
  return knownVersion ? { url: knownUrl, version: knownVersion } : { url: knownUrl };
}

/**
 * Reads either shape of remotes.json, keeping the known remotes it can locate and ignoring every field it does
 * not know (a newer schema only adds fields):
 * - schema 2: `{ "schemaVersion": 2, "remotes": { "catalog": { "version": "0.2.0", "url": "..." } } }`;
 * - the flat shape of shells before it: `{ "catalog": "/remotes/catalog/0.2.0/mf-manifest.json" }`.
 * Throws when the document is not an object, or names a schema without a `remotes` object.
 */
export function parseRemotesManifest(raw: unknown): RemotesManifest {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new Error('remotes.json must be an object');
  }
  const document = raw as Record<string, unknown>;
  const manifest: RemotesManifest = {};
  if (document['schemaVersion'] === undefined) {
    for (const name of REMOTE_NAMES) {
      const url = nonEmpty(document[name]);
      if (url) manifest[name] = { url };
    }
    return manifest;
  }
  const remotes = document['remotes'];
  if (typeof remotes !== 'object' || remotes === null || Array.isArray(remotes)) {
    throw new Error(`remotes.json (schema ${String(document['schemaVersion'])}) has no "remotes" object`);
  }
  for (const name of REMOTE_NAMES) {
    const location = locationOf(name, (remotes as Record<string, unknown>)[name]);
    if (location) manifest[name] = location;
  }
  return manifest;
}

/**
 * remotes.json with each remote a rendered page was drawn by pinned to the version that drew it
 * (`rendered`, from the page: first-screen/rendered-attribute.ts), at its conventional path: the page takes
 * its HTML over with that version's code and keeps it for its life, even when remotes.json names another by
 * then. An entry of the same version keeps its own URL, and one that names no version (the flat shape) is
 * left as it is: nothing says it differs.
 */
export function pinnedToRendered(
  manifest: RemotesManifest,
  rendered: Readonly<Record<string, string>>,
): RemotesManifest {
  const pinned: RemotesManifest = { ...manifest };
  for (const name of REMOTE_NAMES) {
    const version = rendered[name];
    const named = manifest[name];
    if (version === undefined || (named && (named.version === undefined || named.version === version)))
      continue;
    pinned[name] = locationOf(name, { version });
  }
  return pinned;
}

/** The remote part of a federated module id ('catalog/HomePage' → 'catalog'). */
export function remoteNameOf(id: string): RemoteName | undefined {
  const name = id.split('/')[0];
  return REMOTE_NAMES.find((known) => known === name);
}
