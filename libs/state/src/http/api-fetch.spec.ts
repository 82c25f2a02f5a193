import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-error';
import { createApiClient, totalCount } from './api-fetch';
import { prefetchCall, readPrefetchedJson, takePrefetchedCall } from './prefetch';

const jsonResponse = (body: unknown, status = 200, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

/** The client's `apiFetch` with a token source and a stand-in for the network (this is a unit test of the client). */
const createApiFetch = (getToken: () => string | undefined, fetchImpl: () => typeof fetch) =>
  createApiClient({ getToken, fetchImpl }).apiFetch;

/** A client whose every call is refused with `status` and `message`, and the spy it tells of a 401. */
function refusingClient(token: string | undefined, status: number, message: string) {
  const onUnauthorized = vi.fn();
  const { apiFetch } = createApiClient({
    getToken: () => token,
    onUnauthorized,
    fetchImpl: () => async () => jsonResponse({ message }, status),
  });
  return { apiFetch, onUnauthorized };
}

describe('apiFetch', () => {
  it('sends JSON with the bearer token of the stored user and returns the parsed answer', async () => {
    const fetchMock = vi.fn<typeof fetch>(async () => jsonResponse({ _id: 'o1' }, 201));
    const apiFetch = createApiFetch(
      () => 'tok-123',
      () => fetchMock,
    );

    await expect(apiFetch('api/orders', { method: 'POST', body: { a: 1 } })).resolves.toEqual({ _id: 'o1' });

    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/orders');
    const headers = new Headers(init?.headers);
    expect(headers.get('Authorization')).toBe('Bearer tok-123');
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(init?.body).toBe('{"a":1}');
  });

  it("starts a new sampled W3C trace with every call, so the gateway's span is the call's child", async () => {
    const fetchMock = vi.fn<typeof fetch>(async () => jsonResponse([]));
    const apiFetch = createApiFetch(
      () => undefined,
      () => fetchMock,
    );
    await apiFetch('/api/products');
    await apiFetch('/api/orders', { method: 'POST', body: {} });

    const [first, second] = fetchMock.mock.calls.map(([, init]) =>
      /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(String(new Headers(init?.headers).get('traceparent'))),
    );
    expect(first).not.toBeNull();
    expect(second).not.toBeNull();
    expect(second![1]).not.toBe(first![1]);
  });

  it('keeps a traceparent the caller gives', async () => {
    const fetchMock = vi.fn<typeof fetch>(async () => jsonResponse([]));
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    await createApiFetch(
      () => undefined,
      () => fetchMock,
    )('/api/products', { headers: { traceparent } });
    expect(new Headers(fetchMock.mock.calls[0]?.[1]?.headers).get('traceparent')).toBe(traceparent);
  });

  it('sends no Authorization header when nobody is signed in', async () => {
    const fetchMock = vi.fn<typeof fetch>(async () => jsonResponse([]));
    await createApiFetch(
      () => undefined,
      () => fetchMock,
    )('/api/products');
    expect(new Headers(fetchMock.mock.calls[0]?.[1]?.headers).has('Authorization')).toBe(false);
  });

  it("rejects a non-2xx answer with the server's message", async () => {
    const apiFetch = createApiFetch(
      () => undefined,
      () => async () => jsonResponse({ message: 'Product Not Found' }, 404),
    );
    const failure = apiFetch('/api/products/slug/none');
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ message: 'Product Not Found', status: 404 });
  });

  it('rejects with a generic message when the server sent none', async () => {
    const apiFetch = createApiFetch(
      () => undefined,
      () => async () => new Response('<html>oops</html>', { status: 502 }),
    );
    await expect(apiFetch('/api/products')).rejects.toMatchObject({
      message: 'Request failed with status 502',
      status: 502,
    });
  });

  it('rejects a 2xx answer that is not JSON', async () => {
    const apiFetch = createApiFetch(
      () => undefined,
      () => async () => new Response('<!doctype html>', { status: 200 }),
    );
    await expect(apiFetch('/api/products')).rejects.toMatchObject({ status: 200 });
  });

  it('resolves an empty answer (204) as undefined', async () => {
    const apiFetch = createApiFetch(
      () => undefined,
      () => async () => new Response(null, { status: 204 }),
    );
    await expect(apiFetch('/api/orders/1', { method: 'DELETE' })).resolves.toBeUndefined();
  });

  it('rejects with a readable message when the server cannot be reached', async () => {
    const apiFetch = createApiFetch(
      () => undefined,
      () => async () => {
        throw new TypeError('Failed to fetch');
      },
    );
    await expect(apiFetch('/api/products')).rejects.toMatchObject({ status: 0 });
  });

  it('answers the headers with the data, so a paged list reads its X-Total-Count', async () => {
    const { apiRequest } = createApiClient({
      getToken: () => undefined,
      fetchImpl: () => async () => jsonResponse([{ _id: 'p1' }], 200, { 'X-Total-Count': '42' }),
    });
    const answer = await apiRequest<unknown[]>('api/products?page=2');
    expect(answer.data).toEqual([{ _id: 'p1' }]);
    expect(answer.status).toBe(200);
    expect(totalCount(answer.headers, answer.data.length)).toBe(42);
  });

  it('ends the session on a 401 from any call but sign-in', async () => {
    const { apiFetch, onUnauthorized } = refusingClient(
      'expired',
      401,
      'Session expired, please sign in again',
    );
    await expect(apiFetch('/api/orders/mine')).rejects.toMatchObject({ status: 401 });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('leaves the session alone when sign-in itself answers 401 (a wrong password)', async () => {
    const { apiFetch, onUnauthorized } = refusingClient(undefined, 401, 'Invalid email or password');
    await expect(apiFetch('api/users/signin', { method: 'POST', body: {} })).rejects.toMatchObject({
      message: 'Invalid email or password',
    });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('does not end the session on a 403', async () => {
    const { apiFetch, onUnauthorized } = refusingClient('customer', 403, 'Admins only');
    await expect(apiFetch('/api/users/all-users')).rejects.toMatchObject({ status: 403 });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });
});

describe('totalCount', () => {
  it('falls back when the header is missing or not a count', () => {
    expect(totalCount(new Headers(), 7)).toBe(7);
    expect(totalCount(new Headers({ 'X-Total-Count': 'many' }), 7)).toBe(7);
    expect(totalCount(new Headers({ 'X-Total-Count': '-1' }), 7)).toBe(7);
    expect(totalCount(new Headers({ 'X-Total-Count': '0' }), 7)).toBe(0);
  });
});

describe('calls started early for the first screen', () => {
  it('hands a started public read to the first apiFetch of its path, once, and never to another method', async () => {
    const network = vi.fn<typeof fetch>(async () => jsonResponse(['from the shell entry']));
    vi.stubGlobal('fetch', network);
    try {
      prefetchCall('/api/products');
      prefetchCall('/api/products');
      expect(network).toHaveBeenCalledTimes(1);
      expect(network.mock.calls[0]?.[0]).toBe('/api/products');
      // An API call joins a trace like the client's own calls; a static document does not need one.
      const sentHeaders = network.mock.calls[0]?.[1]?.headers as Record<string, string>;
      expect(sentHeaders.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
      prefetchCall('/remotes.json', 'no-store');
      expect((network.mock.calls[1]?.[1]?.headers as Record<string, string>).traceparent).toBeUndefined();
      takePrefetchedCall('/remotes.json');
    } finally {
      vi.unstubAllGlobals();
    }

    const later = vi.fn<typeof fetch>(async () => jsonResponse(['fetched by the client']));
    const apiFetch = createApiFetch(
      () => 'tok-1',
      () => later,
    );
    await expect(apiFetch('/api/products', { method: 'POST', body: {} })).resolves.toEqual([
      'fetched by the client',
    ]);
    await expect(apiFetch('/api/products')).resolves.toEqual(['from the shell entry']);
    await expect(apiFetch('/api/products')).resolves.toEqual(['fetched by the client']);
    expect(later).toHaveBeenCalledTimes(2);
    expect(takePrefetchedCall('/api/products')).toBeUndefined();
  });

  it('lets the shell read a started call’s JSON without taking the answer from its taker', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(async () => jsonResponse([{ slug: 'glock-19' }])),
    );
    try {
      prefetchCall('/api/products?early');
    } finally {
      vi.unstubAllGlobals();
    }
    const peeked = readPrefetchedJson('/api/products?early');
    const taken = takePrefetchedCall('/api/products?early');
    await expect(peeked).resolves.toEqual([{ slug: 'glock-19' }]);
    await expect(taken?.then((response) => response.json())).resolves.toEqual([{ slug: 'glock-19' }]);
    expect(readPrefetchedJson('/api/products?early')).toBeUndefined();
  });

  it('reads nothing from a call that failed or answered an error', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(async (url) => {
        if (String(url) === '/down') throw new TypeError('offline');
        return jsonResponse({ message: 'nope' }, 500);
      }),
    );
    try {
      prefetchCall('/down');
      prefetchCall('/error');
    } finally {
      vi.unstubAllGlobals();
    }
    await expect(readPrefetchedJson('/down')).resolves.toBeUndefined();
    await expect(readPrefetchedJson('/error')).resolves.toBeUndefined();
    takePrefetchedCall('/down');
    takePrefetchedCall('/error');
  });
});
