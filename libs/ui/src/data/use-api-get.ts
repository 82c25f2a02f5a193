import { type ApiResponse, apiRequest } from '@shop/state';
import { useStore } from 'jotai';
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  serverAnswerFor,
  serverAnswersAtom,
  unansweredReadsAtom,
} from '../first-screen/server-answers.atoms';
import { errorMessage, errorStatus, isAbort } from './error-message';

/** A read that failed: the message to show, and the HTTP status (0 when the server could not be reached). */
export interface ApiGetFailure {
  status: 'failed';
  message: string;
  httpStatus: number;
}

/**
 * A read in progress (with the answer of the path before, when there was one), failed, or done; a done
 * read being fetched again (`reload`) stays on screen with `refreshing` set until the new answer arrives.
 */
export type ApiGetState<T> =
  | { status: 'loading'; previous?: ApiResponse<T> }
  | ApiGetFailure
  | { status: 'loaded'; response: ApiResponse<T>; refreshing: boolean };

export interface ApiGetControls<T> {
  /** Fetches the same path again in place. */
  reload: () => void;
  /**
   * Puts a newer copy of the data in place (the server's answer to a save) without asking again: the data,
   * or a change of the data on screen (ignored while there is none).
   */
  replace: (next: T | ((current: T) => T)) => void;
}

export type ApiGet<T> = ApiGetState<T> & ApiGetControls<T>;

type Settled<T> = {
  path: string;
  version: number;
  outcome: ApiGetFailure | { status: 'loaded'; response: ApiResponse<T> };
};

/** The answer the server rendered this path from (docs/decisions/0020), as the first state of the read. */
function settledOnServer<T>(store: ReturnType<typeof useStore>, path: string | null): Settled<T> | undefined {
  if (path === null) return undefined;
  const answer = serverAnswerFor(store.get, path);
  if (!answer) {
    // Rendering on the server: the render server fetches this read and renders again.
    store.get(unansweredReadsAtom)?.add(path);
    return undefined;
  }
  const outcome = answer.ok
    ? {
        status: 'loaded' as const,
        response: { data: answer.data as T, status: answer.status, headers: new Headers(answer.headers) },
      }
    : { status: 'failed' as const, message: answer.message, httpStatus: answer.status };
  return { path, version: 0, outcome };
}

/**
 * `GET path` through the shared client when the screen mounts, and again whenever the path changes; an
 * answer for a path the screen has left is dropped (the call is aborted), so a slow first answer never
 * overwrites a newer one. With `null` for the path nothing is asked and the state stays loading.
 * A page rendered on the server starts from the answer it was rendered with, once, without asking again.
 */
export function useApiGet<T>(path: string | null): ApiGet<T> {
  const store = useStore();
  const [version, setVersion] = useState(0);
  const [settled, setSettled] = useState<Settled<T> | undefined>(() => settledOnServer<T>(store, path));
  const fromServer = useRef(settled);

  useEffect(() => {
    if (path === null) return;
    const served = fromServer.current;
    if (served && served.path === path && served.version === version) {
      // Used once: a later visit to this screen asks afresh.
      store.set(serverAnswersAtom, (answers) => {
        const { [path]: _used, ...rest } = answers;
        return rest;
      });
      return;
    }
    fromServer.current = undefined;
    const controller = new AbortController();
    apiRequest<T>(path, { signal: controller.signal }).then(
      (response) => {
        if (!controller.signal.aborted)
          setSettled({ path, version, outcome: { status: 'loaded', response } });
      },
      (error: unknown) => {
        if (isAbort(error, controller.signal)) return;
        const outcome = {
          status: 'failed',
          message: errorMessage(error),
          httpStatus: errorStatus(error),
        } as const;
        setSettled({ path, version, outcome });
      },
    );
    return () => controller.abort();
  }, [path, version, store]);

  const reload = useCallback(() => setVersion((current) => current + 1), []);
  const replace = useCallback(
    (next: T | ((current: T) => T)) => {
      if (path === null) return;
      setSettled((current) => {
        const shown =
          current?.path === path && current.outcome.status === 'loaded'
            ? current.outcome.response
            : undefined;
        if (typeof next === 'function' && !shown) return current;
        const data = typeof next === 'function' ? (next as (current: T) => T)(shown!.data) : next;
        const response = { data, status: shown?.status ?? 200, headers: shown?.headers ?? new Headers() };
        return { path, version, outcome: { status: 'loaded', response } };
      });
    },
    [path, version],
  );

  const controls = { reload, replace };
  if (path === null || settled === undefined) return { status: 'loading', ...controls };
  if (settled.path !== path) {
    const previous = settled.outcome.status === 'loaded' ? settled.outcome.response : undefined;
    return { status: 'loading', ...(previous && { previous }), ...controls };
  }
  if (settled.outcome.status === 'failed') {
    // Trying again after a failure shows loading; a done read being fetched again stays on screen.
    return settled.version === version
      ? { ...settled.outcome, ...controls }
      : { status: 'loading', ...controls };
  }
  return { ...settled.outcome, refreshing: settled.version !== version, ...controls };
}

/** The rows of a list read once it is loaded; none while it loads, after a failure, or if it is not a list. */
export function loadedList<T>(list: ApiGetState<T[]>): T[] {
  return list.status === 'loaded' && Array.isArray(list.response.data) ? list.response.data : [];
}
