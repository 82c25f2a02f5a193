import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-error';
import { createApiFetch } from './api-fetch';

const jsonResponse = (body: unknown, status = 200): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

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
});
