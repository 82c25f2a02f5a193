import { Agent, fetch } from 'undici';

export interface JsonAnswer<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  /** The parsed JSON of a JSON answer; the text of any other; undefined for an empty one. */
  body: T;
  /** The answer as it came, to check what it must not hold (a stack trace, a hash). */
  text: string;
}

export interface JsonCallOptions {
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** Sent as JSON (with its content type). */
  body?: unknown;
  /** Sent as it is instead of `body` (as JSON unless `headers` name another content type): a malformed or oversized body. */
  raw?: string | Uint8Array;
  headers?: Record<string, string>;
  /** The local address to connect from (127.0.0.x): how a server tells different clients apart. */
  from?: string;
}

/** One connection pool per local address a test connects from. */
const agents = new Map<string, Agent>();
const agentFrom = (address: string): Agent => {
  let agent = agents.get(address);
  if (!agent) agents.set(address, (agent = new Agent({ localAddress: address })));
  return agent;
};

/** One HTTP call with a JSON body, as the storefront makes it (`fetch`), to `baseUrl` + `path`. */
export async function jsonCall<T = Record<string, unknown>>(
  baseUrl: string,
  method: string,
  path: string,
  options: JsonCallOptions = {},
): Promise<JsonAnswer<T>> {
  const payload = options.raw ?? (options.body !== undefined ? JSON.stringify(options.body) : undefined);
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    body: payload,
    dispatcher: options.from ? agentFrom(options.from) : undefined,
  });
  const text = await response.text();
  const json = response.headers.get('content-type')?.includes('json');
  return {
    status: response.status,
    headers: response.headers as unknown as Headers,
    body: (text === '' ? undefined : json ? JSON.parse(text) : text) as T,
    text,
  };
}
