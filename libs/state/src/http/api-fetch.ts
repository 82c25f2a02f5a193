import { ApiError } from './api-error';
import { takePrefetchedCall } from './prefetch';
import { newTraceparent, TRACEPARENT_HEADER } from './traceparent';

/** Options of a call: like `fetch`, but `body` is any JSON value (or FormData). */
export interface ApiRequestInit extends Omit<RequestInit, 'body'> {
  body?: unknown;
}

/** A whole answer: the parsed body with the status and headers (`X-Total-Count` for paged lists). */
export interface ApiResponse<T> {
  data: T;
  status: number;
  headers: Headers;
}

/** A JSON call to the site root; resolves with the parsed answer, rejects with `ApiError`. */
export type ApiFetch = <T>(path: string, init?: ApiRequestInit) => Promise<T>;

/** The same call, resolving with the status and headers too. */
export type ApiRequest = <T>(path: string, init?: ApiRequestInit) => Promise<ApiResponse<T>>;

export interface ApiClientOptions {
  /** The bearer token of each call, or nothing when nobody is signed in. */
  getToken: () => string | undefined;
  /** Told when a call other than sign-in answers 401: the stored session is no longer good. */
  onUnauthorized?: () => void;
  fetchImpl?: () => typeof fetch;
}

export interface ApiClient {
  apiFetch: ApiFetch;
  apiRequest: ApiRequest;
}

export const NO_ANSWER = 'Could not reach the server. Please check your connection and try again.';

const UNEXPECTED_ANSWER = 'The server sent an unexpected answer. Please try again later.';

/** Sign-in answers 401 for a wrong password: that is the form's message, not an ended session. */
const SIGN_IN_PATH = '/api/users/signin';

export const genericFailure = (status: number): string => `Request failed with status ${status}`;

/** The `message` of an error body, when the server sent a usable one. */
export function serverMessage(body: unknown): string | undefined {
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

/** Parses a JSON answer; '' is undefined and anything unparsable is `NOT_JSON`. */
export function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}

/** A path on the site root: `api/x` and `/api/x` alike; absolute URLs as they are. */
export function siteUrl(path: string): string {
  return /^https?:\/\//.test(path) || path.startsWith('/') ? path : `/${path}`;
}

/** Whether a 401 from this path means the stored session ended (every call but sign-in). */
export function endsSession(url: string, status: number): boolean {
  return status === 401 && url.split('?')[0] !== SIGN_IN_PATH;
}

/** Builds the site's HTTP client: bearer token, JSON in and out, the server's message on failure. */
function isPlainGet(method: string | undefined, body: unknown): boolean {
  return (method === undefined || method.toUpperCase() === 'GET') && body === undefined;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const fetchImpl = options.fetchImpl ?? (() => globalThis.fetch);

  const apiRequest: ApiRequest = async <T>(path: string, init: ApiRequestInit = {}) => {
    const { body, headers: extraHeaders, ...rest } = init;
    const headers = new Headers(extraHeaders);
    headers.set('Accept', 'application/json');
    const isForm = typeof FormData !== 'undefined' && body instanceof FormData;
    if (body !== undefined && !isForm) headers.set('Content-Type', 'application/json');
    const token = options.getToken();
    if (token) headers.set('Authorization', `Bearer ${token}`);
    // Each call starts its own trace, unless the caller continues one.
    if (!headers.has(TRACEPARENT_HEADER)) headers.set(TRACEPARENT_HEADER, newTraceparent());

    const url = siteUrl(path);
    // A public read the shell's entry already started for the first screen (prefetch.ts).
    const prefetched = isPlainGet(rest.method, body) ? takePrefetchedCall(path) : undefined;
    let response: Response;
    try {
      response = await (prefetched ??
        fetchImpl()(url, {
          ...rest,
          headers,
          body: body === undefined ? undefined : isForm ? (body as FormData) : JSON.stringify(body),
        }));
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      throw new ApiError(NO_ANSWER, 0);
    }

    const parsed = parseJson(await response.text());
    if (!response.ok) {
      if (endsSession(url, response.status)) options.onUnauthorized?.();
      throw new ApiError(serverMessage(parsed) ?? genericFailure(response.status), response.status);
    }
    // A page instead of data means the call did not reach the API (a proxy or static server answered).
    if (parsed === NOT_JSON) throw new ApiError(UNEXPECTED_ANSWER, response.status);
    return { data: parsed as T, status: response.status, headers: response.headers };
  };

  const apiFetch: ApiFetch = async <T>(path: string, init?: ApiRequestInit) =>
    (await apiRequest<T>(path, init)).data;

  return { apiFetch, apiRequest };
}

/** The `X-Total-Count` of a paged list, or `fallback` when the server sent none. */
export function totalCount(headers: Headers, fallback: number): number {
  const value = Number(headers.get('X-Total-Count'));
  return headers.has('X-Total-Count') && Number.isSafeInteger(value) && value >= 0 ? value : fallback;
}
