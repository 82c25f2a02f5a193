import { ApiError } from './api-error';

/** Options of `apiFetch`: like `fetch`, but `body` is any JSON value (or FormData for uploads). */
export interface ApiRequestInit extends Omit<RequestInit, 'body'> {
  body?: unknown;
}

/** A JSON call to the site root; resolves with the parsed answer, rejects with `ApiError`. */
export type ApiFetch = <T>(path: string, init?: ApiRequestInit) => Promise<T>;

const NO_ANSWER = 'Could not reach the server. Please check your connection and try again.';

const UNEXPECTED_ANSWER = 'The server sent an unexpected answer. Please try again later.';

const genericFailure = (status: number): string => `Request failed with status ${status}`;

function serverMessage(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const message = (body as { message?: unknown }).message;
  if (typeof message === 'string' && message.trim() !== '') return message;
  // Some frameworks answer validation errors with a list of messages.
  if (Array.isArray(message) && message.every((item) => typeof item === 'string') && message.length > 0) {
    return message.join(', ');
  }
  return undefined;
}

const NOT_JSON = Symbol('not JSON');

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}

/** Builds an `apiFetch` that asks `getToken` for the bearer token of each call. */
export function createApiFetch(
  getToken: () => string | undefined,
  fetchImpl: () => typeof fetch = () => globalThis.fetch,
): ApiFetch {
  return async <T>(path: string, init: ApiRequestInit = {}): Promise<T> => {
    const { body, headers: extraHeaders, ...rest } = init;
    const headers = new Headers(extraHeaders);
    headers.set('Accept', 'application/json');
    const isForm = typeof FormData !== 'undefined' && body instanceof FormData;
    if (body !== undefined && !isForm) headers.set('Content-Type', 'application/json');
    const token = getToken();
    if (token) headers.set('Authorization', `Bearer ${token}`);

    const url = /^https?:\/\//.test(path) || path.startsWith('/') ? path : `/${path}`;
    let response: Response;
    try {
      response = await fetchImpl()(url, {
        ...rest,
        headers,
        body: body === undefined ? undefined : isForm ? (body as FormData) : JSON.stringify(body),
      });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      throw new ApiError(NO_ANSWER, 0);
    }

    const parsed = await readJson(response);
    if (!response.ok)
      throw new ApiError(serverMessage(parsed) ?? genericFailure(response.status), response.status);
    // A page instead of data means the call did not reach the API (a proxy or static server answered).
    if (parsed === NOT_JSON) throw new ApiError(UNEXPECTED_ANSWER, response.status);
    return parsed as T;
  };
}
