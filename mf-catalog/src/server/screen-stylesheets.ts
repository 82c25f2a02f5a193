// The stylesheets of a rendered screen, for the page's head (docs/rendering.md, "Styles"): the browser build
// writes each exposed screen's CSS to files and lists them in its mf-manifest.json; a page the server rendered
// links them, so it paints styled before any script runs. The manifest is this version's own, read once
// through the gateway where the remote's files are published (/remotes/catalog/<version>/, decision 0011).

/** Where this remote's browser files are published, per version (the shell's remotes.json names the same). */
export const publishedPath = (version: string) => `/remotes/catalog/${encodeURIComponent(version)}/`;

/** The stylesheets an exposed screen needs at once (`exposes[].assets.css.sync`), as the manifest names them. */
export function stylesheetsOf(manifest: unknown, screen: string): string[] {
  const exposes = (manifest as { exposes?: unknown } | null)?.exposes;
  if (!Array.isArray(exposes)) return [];
  const exposed = exposes.find(
    (entry): entry is { assets?: { css?: { sync?: unknown } } } =>
      typeof entry === 'object' && entry !== null && (entry as { name?: unknown }).name === screen,
  );
  const sync = exposed?.assets?.css?.sync;
  return Array.isArray(sync)
    ? sync.filter((file): file is string => typeof file === 'string' && /^[\w./-]+\.css$/.test(file))
    : [];
}

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * `<link rel="stylesheet">` tags for a screen, each by its full URL on the shop's origin: the same URL the
 * remote's chunk loader would ask for (its public path is where remoteEntry.js came from), so it finds the
 * link already in the page and does not load the file again.
 */
export function stylesheetLinks(files: readonly string[], origin: string, version: string): string {
  return files
    .map(
      (file) =>
        `<link rel="stylesheet" href="${escapeAttribute(`${origin}${publishedPath(version)}${file}`)}"/>`,
    )
    .join('');
}

/**
 * The manifest of `version`, read through `apiUrl` (the gateway) on first use and kept; a failed read is
 * tried again on the next use, and meanwhile a screen goes without links (drawn unstyled until its code
 * has run, as before).
 */
export function manifestReader(
  apiUrl: string,
  version: string,
  timeoutMs = 2_000,
): () => Promise<unknown | undefined> {
  let kept: unknown;
  return async () => {
    if (kept !== undefined) return kept;
    try {
      const response = await fetch(new URL(`${publishedPath(version)}mf-manifest.json`, apiUrl), {
        headers: { Accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) return undefined;
      kept = await response.json();
      return kept;
    } catch {
      return undefined;
    }
  };
}
