/**
 * Set on `<html>` by the page server on a page it rendered (shell/src/server/compose-page.ts), so the page's
 * start script, which runs before the body is parsed, knows the data and pictures are in the page already.
 * Its value names the version of each remote whose render the page holds (`catalog@0.2.0`): the browser must
 * take that HTML over with the same version's code, whatever remotes.json names by then (a switch between
 * the server's render and the browser's read of remotes.json would otherwise mix two versions).
 */
export const RENDERED_ATTRIBUTE = 'data-rendered';

/** The attribute's value for these versions: `name@version` pairs, space-separated, each version URI-encoded. */
export function renderedAttributeValue(remotes: Readonly<Record<string, string>>): string {
  return Object.entries(remotes)
    .map(([name, version]) => `${name}@${encodeURIComponent(version)}`)
    .join(' ');
}

/** The versions a rendered page's remotes were drawn by, read from `<html>`; none on a page drawn in the browser. */
export function renderedRemoteVersions(root: Element = document.documentElement): Record<string, string> {
  const versions: Record<string, string> = {};
  for (const pair of (root.getAttribute(RENDERED_ATTRIBUTE) ?? '').split(' ')) {
    const at = pair.indexOf('@');
    if (at <= 0) continue;
    try {
      versions[pair.slice(0, at)] = decodeURIComponent(pair.slice(at + 1));
    } catch {
      // A damaged value pins nothing: remotes.json decides, as on a page drawn in the browser.
    }
  }
  return versions;
}
