import { vi } from 'vitest';

/** What a stubbed call answers. */
export interface StubAnswer {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** One call the screen made. */
export interface StubCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

type Handler = StubAnswer | ((call: StubCall) => StubAnswer | Promise<StubAnswer>);

/**
 * Stands in for the network of a screen test: routes are 'METHOD /path' (no query), each answering
 * a fixed answer or a function of the call; anything else answers 404. Records every call.
 */
export function stubApi(routes: Record<string, Handler>) {
  const calls: StubCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://shop.test');
    const method = (init?.method ?? 'GET').toUpperCase();
    const call: StubCall = {
      method,
      path: url.pathname,
      query: url.searchParams,
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    };
    calls.push(call);
    const handler = routes[`${method} ${url.pathname}`];
    const answer =
      typeof handler === 'function'
        ? await handler(call)
        : (handler ?? { status: 404, body: { message: 'Not Found' } });
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'Content-Type': 'application/json', ...answer.headers },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    fetchMock,
    callsTo: (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path),
  };
}

/** A list answer: the page's rows with the total of every match in X-Total-Count. */
export const page = (items: unknown[], total = items.length): StubAnswer => ({
  body: items,
  headers: { 'X-Total-Count': String(total) },
});
