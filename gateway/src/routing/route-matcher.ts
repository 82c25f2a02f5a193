/** What the matcher needs to know about a route. */
export interface MatchableRoute {
  readonly name: string;
  /** Plain prefix paths (regex paths are refused at load time); null when the route has none. */
  readonly paths: readonly string[] | null;
  /** Upper-case HTTP methods; null when the route accepts any method. */
  readonly methods: readonly string[] | null;
}

/** The route chosen for a request and the path prefix that selected it. */
export interface RouteMatch<R extends MatchableRoute> {
  readonly route: R;
  /** The configured path that matched, or null for a route without paths. */
  readonly matchedPath: string | null;
}

interface Candidate<R extends MatchableRoute> {
  readonly route: R;
  readonly path: string | null;
  /** How many kinds of condition the route declares (Kong's "match weight"). */
  readonly weight: number;
  readonly pathLength: number;
  readonly order: number;
}

/**
 * Picks a route the way Kong 3's default (`traditional_compatible`) router does for plain paths:
 * a route that declares more kinds of condition wins (paths + methods beats paths alone, even
 * when the paths-only route has the longer prefix), then the longest matching prefix wins,
 * then the route declared first. A route with several paths competes once per path.
 * Prefix matching is plain string prefixing, as in Kong: `/api/products` also matches
 * `/api/productsfoo`.
 */
export class RouteMatcher<R extends MatchableRoute> {
  private readonly candidates: readonly Candidate<R>[];

  constructor(routes: readonly R[]) {
    const candidates: Candidate<R>[] = [];
    routes.forEach((route, order) => {
      const weight = (route.methods ? 1 : 0) + (route.paths ? 1 : 0);
      if (route.paths) {
        for (const path of route.paths) {
          candidates.push({ route, path, weight, pathLength: path.length, order });
        }
      } else {
        candidates.push({ route, path: null, weight, pathLength: 0, order });
      }
    });
    candidates.sort((a, b) => b.weight - a.weight || b.pathLength - a.pathLength || a.order - b.order);
    this.candidates = candidates;
  }

  /** Finds the route for a request; `path` must already be normalised. */
  match(method: string, path: string): RouteMatch<R> | undefined {
    const upperMethod = method.toUpperCase();
    for (const candidate of this.candidates) {
      if (candidate.path !== null && !path.startsWith(candidate.path)) continue;
      if (candidate.route.methods && !candidate.route.methods.includes(upperMethod)) continue;
      return { route: candidate.route, matchedPath: candidate.path };
    }
    return undefined;
  }
}
