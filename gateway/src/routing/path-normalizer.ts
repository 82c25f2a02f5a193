// Kong matches routes on a normalised path and forwards that same path (re-escaped) upstream.
// Doing the same here matters for abuse resistance: `/api/users/x/../signin` or
// `/api/users//sign%69n` must hit the strict sign-in route, not the generous default.
// Paths are handled as byte strings (one char per byte, latin1) so percent-decoded UTF-8
// survives untouched until it is escaped again.

/** Characters that keep their percent-encoding, because decoding them changes what the path means. */
const RESERVED = new Set(Array.from("!*'();:@&=+$,/?%#[]", (c) => c.charCodeAt(0)));

/** Characters forwarded as they are; everything else is percent-escaped on the way upstream. */
const FORWARDED_AS_IS = /[A-Za-z0-9\-._~!$&'()*+,;=:@/%[\]]/;

function toByteString(value: string): string {
  // A request target is bytes; Node hands them over as latin1, but be safe with wider chars.
  for (let i = 0; i < value.length; i++) {
    if (value.charCodeAt(i) > 0xff) return Buffer.from(value, 'utf8').toString('latin1');
  }
  return value;
}

function decodeUnreserved(path: string): string {
  if (!path.includes('%')) return path;
  return path.replace(/%([0-9A-Fa-f]{2})/g, (triplet, hex: string) => {
    const code = Number.parseInt(hex, 16);
    return RESERVED.has(code) ? triplet.toUpperCase() : String.fromCharCode(code);
  });
}

function removeDotSegmentsAndMergeSlashes(path: string): string {
  const segments = path.split('/');
  const out: string[] = [];
  for (let i = 1; i < segments.length; i++) {
    const segment = segments[i] ?? '';
    const isLast = i === segments.length - 1;
    if (segment === '.' || segment === '..') {
      if (segment === '..') out.pop();
      // `/a/.` and `/a/b/..` name a directory, so they keep a trailing slash.
      if (isLast) out.push('');
      continue;
    }
    if (segment === '' && !isLast) continue;
    out.push(segment);
  }
  return `/${out.join('/')}`;
}

/**
 * Normalises a request path the way Kong's router does before matching: percent-decodes
 * everything except reserved characters, removes dot segments and merges repeated slashes.
 * The input must be the path only (no query string) and start with `/`.
 */
export function normalizePath(rawPath: string): string {
  const bytes = toByteString(rawPath);
  if (bytes === '/' || bytes === '') return '/';
  return removeDotSegmentsAndMergeSlashes(decodeUnreserved(bytes));
}

/** Percent-escapes a normalised (byte string) path so it is safe on the upstream request line. */
export function escapePath(path: string): string {
  let out = '';
  for (const char of path) {
    out += FORWARDED_AS_IS.test(char)
      ? char
      : `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Splits a raw request target into its path and query (query without `?`, or null when absent). */
export function splitRequestTarget(target: string): { path: string; query: string | null } | null {
  let pathAndQuery = target;
  if (!target.startsWith('/')) {
    // Absolute-form targets (`GET http://host/path`) are legal HTTP/1.1; anything else is not a path.
    const match = /^https?:\/\/[^/?#]*/i.exec(target);
    if (!match) return null;
    pathAndQuery = target.slice(match[0].length) || '/';
    if (!pathAndQuery.startsWith('/')) pathAndQuery = `/${pathAndQuery}`;
  }
  const hash = pathAndQuery.indexOf('#');
  if (hash !== -1) pathAndQuery = pathAndQuery.slice(0, hash);
  const question = pathAndQuery.indexOf('?');
  if (question === -1) return { path: pathAndQuery, query: null };
  return { path: pathAndQuery.slice(0, question), query: pathAndQuery.slice(question + 1) };
}
