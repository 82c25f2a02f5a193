import { vi } from 'vitest';

/**
 * What a stubbed call answers: a status (200 unless given), a JSON body (or `text`, sent as it is, for
 * a file such as an export) and extra headers.
 */
export interface StubAnswer {
  status?: number;
  body?: unknown;
  text?: string;
  headers?: Record<string, string>;
}

/** One call the screen made. */
export interface StubCall {
  method: string;
  /** Path and query, as the screen asked for it. */
  url: string;
  path: string;
  query: URLSearchParams;
  /** The parsed JSON body, if one was sent. */
  body: unknown;
  init: RequestInit;
}

type Reply = StubAnswer | undefined | Promise<StubAnswer | undefined>;
type Handler = StubAnswer | ((call: StubCall) => Reply);

/**
 * What the stub answers: a table whose keys are `'METHOD /path'` or `'/path'` (any method; no query in
 * either), each a fixed answer or a function of the call; or one function of every call. Anything not
 * answered is a 404.
 */
export type StubRoutes = Record<string, Handler> | ((call: StubCall) => Reply);

function callOf(input: RequestInfo | URL, init: RequestInit = {}): StubCall {
  const url = new URL(String(input), 'http://shop.test');
  return {
    method: (init.method ?? 'GET').toUpperCase(),
    url: url.pathname + url.search,
    path: url.pathname,
    query: url.searchParams,
    body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    init,
  };
}

function answerOf(routes: StubRoutes, call: StubCall): Reply {
  if (typeof routes === 'function') return routes(call);
  const handler = routes[`${call.method} ${call.path}`] ?? routes[call.path];
  return typeof handler === 'function' ? handler(call) : handler;
}

/**
 * Stands in for the network of a screen test (`fetch`, which the shared API client calls); returns the
 * mock, which also holds every call made (`calls`, `callsTo`, `urls`).
 */
export function stubApi(routes: StubRoutes) {
  const calls: StubCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const call = callOf(input, init);
    calls.push(call);
    const answer = (await answerOf(routes, call)) ?? {
      status: 404,
      body: { message: `No stub for ${call.path}` },
    };
    if (answer.text !== undefined) {
      return new Response(answer.text, { status: answer.status ?? 200, headers: answer.headers });
    }
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'Content-Type': 'application/json', ...answer.headers },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return Object.assign(fetchMock, {
    calls,
    callsTo: (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path),
    /** The path and query of every call, in order. */
    urls: () => calls.map((c) => c.url),
  });
}

/** A JSON answer with this status. */
export const json = (status: number, body: unknown, headers?: Record<string, string>): StubAnswer => ({
  status,
  body,
  headers,
});

/** A list answer: the page's rows with the total of every match in X-Total-Count. */
export const page = (items: unknown[], total = items.length): StubAnswer => ({
  body: items,
  headers: { 'X-Total-Count': String(total) },
});

/**
 * The routes of a list one of whose rows is deleted: `list` answers a page of `rows` until `deletion` is
 * answered (with `deleted`), and a page of the others after it.
 */
export function listWithDeletion<T>(routes: {
  list: string;
  rows: T[];
  deletion: string;
  row: T;
  deleted: StubAnswer;
}): Record<string, Handler> {
  let gone = false;
  return {
    [routes.list]: () => page(gone ? routes.rows.filter((row) => row !== routes.row) : routes.rows),
    [routes.deletion]: () => {
      gone = true;
      return routes.deleted;
    },
  };
}
