import { ApiError, type ApiResponse, apiRequest } from '@shop/state';
import { useEffect, useState } from 'react';

/** A read that failed: the message to show, and the HTTP status (0 when the server could not be reached). */
export interface ApiGetFailure {
  status: 'failed';
  message: string;
  httpStatus: number;
}

/** A read in progress (with the answer of the path before, when there was one), failed, or done. */
export type ApiGet<T> =
  | { status: 'loading'; previous?: ApiResponse<T> }
  | ApiGetFailure
  | { status: 'loaded'; response: ApiResponse<T> };

type Settled<T> = ApiGetFailure | { status: 'loaded'; response: ApiResponse<T> };

/**
 * `GET path` through the shared client, again whenever the path changes; an answer for a path the
 * screen has left is dropped (the call is aborted), so a slow first answer never overwrites a newer one.
 */
export function useApiGet<T>(path: string): ApiGet<T> {
  const [settled, setSettled] = useState<{ path: string; outcome: Settled<T> }>();

  useEffect(() => {
    const controller = new AbortController();
    apiRequest<T>(path, { signal: controller.signal }).then(
      (response) => setSettled({ path, outcome: { status: 'loaded', response } }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const message = error instanceof Error ? error.message : String(error);
        const httpStatus = error instanceof ApiError ? error.status : 0;
        setSettled({ path, outcome: { status: 'failed', message, httpStatus } });
      },
    );
    return () => controller.abort();
  }, [path]);

  if (settled?.path === path) return settled.outcome;
  return {
    status: 'loading',
    ...(settled?.outcome.status === 'loaded' && { previous: settled.outcome.response }),
  };
}
