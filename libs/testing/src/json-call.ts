export interface JsonAnswer<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  /** The parsed JSON of a JSON answer; the text of any other; undefined for an empty one. */
  body: T;
}

export interface JsonCallOptions {
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** Sent as JSON (with its content type). */
  body?: unknown;
  headers?: Record<string, string>;
}

/** One HTTP call with a JSON body, as the storefront makes it (`fetch`), to `baseUrl` + `path`. */
export async function jsonCall<T = Record<string, unknown>>(
  baseUrl: string,
  method: string,
  path: string,
  options: JsonCallOptions = {},
): Promise<JsonAnswer<T>> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
  });
  const text = await response.text();
  const json = response.headers.get('content-type')?.includes('json');
  return {
    status: response.status,
    headers: response.headers,
    body: (text === '' ? undefined : json ? JSON.parse(text) : text) as T,
  };
}
