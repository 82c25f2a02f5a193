import { ApiError } from '@shop/state';
import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type StubAnswer, page, stubApi } from '../testing';
import { errorMessage, errorStatus } from './error-message';
import { useApiGet } from './use-api-get';
import { usePagedApiGet } from './use-paged-api-get';

afterEach(() => vi.unstubAllGlobals());

/** A stub whose answers the test releases one by one: the oldest call waiting, or the one to this path. */
function heldAnswers() {
  const waiting: { path: string; resolve: (answer: StubAnswer) => void }[] = [];
  const api = stubApi(({ path }) => new Promise<StubAnswer>((resolve) => waiting.push({ path, resolve })));
  const release = async (answer: StubAnswer, path?: string) => {
    await waitFor(() => expect(waiting.some((call) => path === undefined || call.path === path)).toBe(true));
    const index = waiting.findIndex((call) => path === undefined || call.path === path);
    const [call] = waiting.splice(index, 1);
    await act(async () => call!.resolve(answer));
  };
  return { api, release };
}

describe('useApiGet', () => {
  it('is loading, then holds the answer with its status and headers', async () => {
    stubApi({ 'GET /api/things': { body: ['a', 'b'], headers: { 'X-Total-Count': '7' } } });
    const { result } = renderHook(() => useApiGet<string[]>('/api/things'));
    expect(result.current.status).toBe('loading');
    await waitFor(() => expect(result.current.status).toBe('loaded'));
    const loaded = result.current.status === 'loaded' ? result.current : undefined;
    expect(loaded?.response.data).toEqual(['a', 'b']);
    expect(loaded?.response.headers.get('X-Total-Count')).toBe('7');
    expect(loaded?.refreshing).toBe(false);
  });

  it('fails with the server’s message and status', async () => {
    stubApi({ '/api/things': { status: 404, body: { message: 'Thing Not Found' } } });
    const { result } = renderHook(() => useApiGet('/api/things'));
    await waitFor(() =>
      expect(result.current).toMatchObject({ status: 'failed', message: 'Thing Not Found', httpStatus: 404 }),
    );
  });

  it('asks nothing without a path', async () => {
    const api = stubApi({});
    const { result } = renderHook(() => useApiGet(null));
    await act(async () => undefined);
    expect(result.current.status).toBe('loading');
    expect(api.calls).toEqual([]);
  });

  it('keeps the previous answer while a new path loads, and drops the answer of a path it has left', async () => {
    const { api, release } = heldAnswers();
    const { result, rerender } = renderHook(({ path }) => useApiGet<string>(path), {
      initialProps: { path: '/api/one' },
    });
    await release({ body: 'one' });
    rerender({ path: '/api/two' });
    expect(result.current).toMatchObject({ status: 'loading', previous: { data: 'one' } });
    rerender({ path: '/api/three' });
    await waitFor(() => expect(api.urls()).toEqual(['/api/one', '/api/two', '/api/three']));
    await release({ body: 'three' }, '/api/three');
    expect(result.current).toMatchObject({ status: 'loaded', response: { data: 'three' } });
    // The answer for /api/two comes after the screen moved on: it must not replace the newer one.
    await release({ body: 'two' }, '/api/two');
    expect(result.current).toMatchObject({ status: 'loaded', response: { data: 'three' } });
  });

  it('reloads in place (refreshing), and puts a newer copy in place without asking', async () => {
    const { api, release } = heldAnswers();
    const { result } = renderHook(() => useApiGet<string[]>('/api/things'));
    await release({ body: ['a'] });
    act(() => result.current.reload());
    expect(result.current).toMatchObject({ status: 'loaded', refreshing: true, response: { data: ['a'] } });
    await release({ body: ['a', 'b'] });
    expect(result.current).toMatchObject({
      status: 'loaded',
      refreshing: false,
      response: { data: ['a', 'b'] },
    });
    act(() => result.current.replace((current) => [...current, 'c']));
    expect(result.current).toMatchObject({ status: 'loaded', response: { data: ['a', 'b', 'c'] } });
    expect(api.calls).toHaveLength(2);
  });

  it('shows loading again while a failed read is tried again', async () => {
    const { release } = heldAnswers();
    const { result } = renderHook(() => useApiGet<string[]>('/api/things'));
    await release({ status: 503, body: { message: 'Unavailable' } });
    expect(result.current).toMatchObject({ status: 'failed', message: 'Unavailable', httpStatus: 503 });
    act(() => result.current.reload());
    expect(result.current.status).toBe('loading');
    await release({ body: ['a'] });
    expect(result.current).toMatchObject({ status: 'loaded', response: { data: ['a'] } });
  });
});

describe('usePagedApiGet', () => {
  it('counts the pages from X-Total-Count', async () => {
    stubApi({ 'GET /api/orders': page(['o1', 'o2'], 21) });
    const { result } = renderHook(() => usePagedApiGet<string>('/api/orders?page=1&limit=10', 10));
    await waitFor(() =>
      expect(result.current).toMatchObject({
        status: 'loaded',
        items: ['o1', 'o2'],
        total: 21,
        pageCount: 3,
      }),
    );
  });
});

describe('errorMessage and errorStatus', () => {
  it('read an Error’s message and an ApiError’s status; anything else is its text and 0', () => {
    expect(errorMessage(new Error('boom'))).toBe('boom');
    expect(errorMessage('plain')).toBe('plain');
    expect(errorStatus(new Error('boom'))).toBe(0);
    expect(errorStatus(new ApiError('Taken', 409))).toBe(409);
  });
});
