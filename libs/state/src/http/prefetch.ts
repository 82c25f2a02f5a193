// Calls the first screen needs, started by the shell's entry before any other code is fetched, so that
// their answers travel alongside the shell's and the remotes' code instead of after it. The first
// `apiFetch` of the same path takes the answer over; each is used once, later calls fetch anew.
// Only public GET calls are started this way (no token is sent): their answer is the same for everyone.
//
// This module stands alone (only traceparent.ts, itself import-free): the shell's entry bundles it before
// the federation runtime has shared anything, and `@shop/state` reads the same registry through a global symbol.

import { newTraceparent, TRACEPARENT_HEADER } from './traceparent';

const REGISTRY = Symbol.for('shop.prefetched-calls');

type Registry = Map<string, Promise<Response>>;

function registry(): Registry {
  const global = globalThis as typeof globalThis & { [REGISTRY]?: Registry };
  return (global[REGISTRY] ??= new Map());
}

/**
 * Starts a public GET call of the site (`/api/products`) unless one is already waiting; `cache` as
 * `fetch` takes it (`no-store` for per-environment configuration such as /remotes.json).
 */
export function prefetchCall(path: string, cache?: RequestCache): void {
  const calls = registry();
  if (calls.has(path)) return;
  const headers: Record<string, string> = { Accept: 'application/json' };
  // API calls join a trace like the client's own; static documents (remotes.json, manifests) need none.
  if (path.startsWith('/api/')) headers[TRACEPARENT_HEADER] = newTraceparent();
  const call = fetch(path, { headers, ...(cache ? { cache } : {}) });
  // A failure is the taker's to report; until then it must not count as unhandled.
  call.catch(() => undefined);
  calls.set(path, call);
}

/** The answer of a started call for this path, once; undefined when none was started or it was taken. */
export function takePrefetchedCall(path: string): Promise<Response> | undefined {
  const calls = registry();
  const call = calls.get(path);
  calls.delete(path);
  return call;
}

/**
 * The JSON body of a started call, read from a copy of its answer so the call's taker still gets all of it;
 * undefined when no call was started for this path. Resolves to undefined when the call failed or did not
 * answer 2xx JSON. Ask before the taker reads the answer (a body can be copied only until it is read).
 */
export function readPrefetchedJson(path: string): Promise<unknown> | undefined {
  const call = registry().get(path);
  return call?.then((response) => (response.ok ? response.clone().json() : undefined)).catch(() => undefined);
}
