/** Inputs of the upstream path computation. */
export interface UpstreamUriInput {
  /** The service's `path` (null when its URL has none). */
  readonly servicePath: string | null;
  readonly stripPath: boolean;
  /** The route path that matched, or null for a route without paths. */
  readonly matchedPath: string | null;
  /** The normalised request path. */
  readonly requestPath: string;
}

// A postfix can only start with dots when a route prefix ends mid-segment (`/remotes/catalog`
// matching `/remotes/catalog../x`); Kong drops them so stripping never climbs out of the service path.
function sanitizePostfix(postfix: string): string {
  if (postfix === '.' || postfix === '..') return '';
  if (postfix.startsWith('./')) return postfix.slice(2);
  if (postfix.startsWith('../')) return postfix.slice(3);
  return postfix;
}

/**
 * The path sent upstream, following Kong's `path_handling: v0` (the default) rules for joining
 * the service path with what is left of the request path after an optional `strip_path`.
 */
export function upstreamUri({ servicePath, stripPath, matchedPath, requestPath }: UpstreamUriInput): string {
  const base = servicePath ?? '/';
  const strips = stripPath && matchedPath !== null;
  const postfix = sanitizePostfix(strips ? requestPath.slice(matchedPath.length) : requestPath.slice(1));

  if (base.endsWith('/')) {
    if (!strips) return base + requestPath.slice(1);
    if (postfix === '') {
      if (base === '/') return '/';
      return requestPath.endsWith('/') ? base : base.slice(0, -1);
    }
    return postfix.startsWith('/') ? base.slice(0, -1) + postfix : base + postfix;
  }

  if (!strips) return requestPath === '/' ? base : base + requestPath;
  if (postfix === '') return requestPath.length > 1 && requestPath.endsWith('/') ? `${base}/` : base;
  return postfix.startsWith('/') ? base + postfix : `${base}/${postfix}`;
}
