// The page server's client of a remote's render service: the screen's fragment, in time and of the version
// the page will run, or nothing (the browser draws that part).
import { formatTreePosition } from '@shop/ui';
import { SCREEN_TREE_POSITION } from '../features/layout/layout';
import type { RemoteName, RemotesManifest } from '../federation/remotes-manifest';
import { isRemoteFragment, type RemoteFragment } from './compose-page';

/**
 * A catalogue page as composed from one fragment: while the render service answers that the fragment is
 * unchanged (its ETag, `304`), the page is sent again as it is, compressed once per encoding.
 */
export interface ComposedPage {
  /** The fragment's validator, as its render service sent it. */
  fragmentTag: string;
  /** The fragment itself, for a page streamed while the render service answered that it is unchanged. */
  fragment: RemoteFragment;
  version: string;
  template: string;
  status: number;
  html: string;
  /** The page's own validator for browsers (`pageTag`, page-answer.ts), computed once. */
  tag: string;
  encoded: Map<string, { body: Buffer; encoding?: 'br' | 'gzip' }>;
}

/** A remote's render of the screen: new, or the one the page last composed, unchanged. */
export type FragmentAnswer =
  | { kind: 'new'; fragment: RemoteFragment; tag?: string; cache?: string }
  | { kind: 'unchanged'; page: ComposedPage; cache?: string };

/** The remote's render in an answer, new or the one an unchanged page was composed from. */
export function fragmentOf(answer: FragmentAnswer | undefined): RemoteFragment | undefined {
  return answer?.kind === 'unchanged' ? answer.page.fragment : answer?.fragment;
}

/** The screen a catalogue path shows, and where its route is placed. */
export interface FragmentTarget {
  remote: RemoteName;
  screen: string;
  route: string;
}

/** The remote's render of the screen, if it came in time and is of the version the page will run. */
export function fragmentFetcher({
  renderService,
  timeoutMs,
  log,
}: {
  renderService: (remote: RemoteName, version: string | undefined) => string | undefined;
  timeoutMs: number;
  log: (entry: Record<string, unknown>) => void;
}) {
  return async (
    target: FragmentTarget,
    remotes: Promise<RemotesManifest>,
    url: string,
    origin: string,
    traceparent: string | undefined,
    composed: ComposedPage | undefined,
  ): Promise<FragmentAnswer | undefined> => {
    try {
      const version = (await remotes)[target.remote]?.version;
      const service = renderService(target.remote, version);
      if (!service) return undefined;
      const known = composed && version !== undefined && composed.version === version ? composed : undefined;
      const query = new URLSearchParams({
        screen: target.screen,
        route: target.route,
        url,
        origin,
        position: formatTreePosition(SCREEN_TREE_POSITION),
      });
      const response = await fetch(`${service}/fragment?${query}`, {
        headers: {
          Accept: 'application/json',
          ...(traceparent ? { traceparent } : {}),
          ...(known ? { 'If-None-Match': known.fragmentTag } : {}),
        },
        signal: AbortSignal.timeout(timeoutMs),
      });
      const cache = response.headers.get('x-render-cache') ?? undefined;
      if (response.status === 304 && known) return { kind: 'unchanged', page: known, cache };
      if (!response.ok) throw new Error(`${target.remote} answered ${response.status}`);
      const fragment: unknown = await response.json();
      if (!isRemoteFragment(fragment)) throw new Error(`${target.remote} answered no fragment`);
      // The browser hydrates with the version remotes.json names: another version's HTML would not match.
      if (version !== undefined && fragment.version !== version) {
        log({
          msg: 'fragment of another version',
          remote: target.remote,
          rendered: fragment.version,
          named: version,
        });
        return undefined;
      }
      return { kind: 'new', fragment, tag: response.headers.get('etag') ?? undefined, cache };
    } catch (error) {
      log({
        msg: 'fragment unavailable',
        remote: target.remote,
        url,
        error: error instanceof Error ? error.message : String(error),
      });
      return undefined;
    }
  };
}
