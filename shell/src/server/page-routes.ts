import { matchPath } from 'react-router-dom';
import { CATALOG_ROUTES, SCREEN_PATHS } from '../app/app-routes';
import type { RemoteName } from '../federation/remotes-manifest';

/** The catalogue screen a path shows, with the route pattern it is placed on. */
export function catalogScreenFor(
  pathname: string,
): { remote: RemoteName; screen: string; route: string } | undefined {
  for (const [route, exposed] of CATALOG_ROUTES) {
    if (!matchPath({ path: route, end: true }, pathname)) continue;
    const [remote, screen] = exposed.split('/') as [RemoteName, string];
    return { remote, screen, route };
  }
  return undefined;
}

/** Whether some screen answers this path (else the page is the not-found screen, with a 404). */
export function isKnownPath(pathname: string): boolean {
  return SCREEN_PATHS.some((path) => matchPath({ path, end: true }, pathname) !== null);
}
