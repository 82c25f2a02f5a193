import type { Product } from '@shop/contracts';
import { vi } from 'vitest';

/** What a stubbed call answers: a status, a JSON body and extra headers. */
export interface StubAnswer {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** Answers a call by its URL (path and query), or undefined for a call the test did not expect (404). */
export type StubRoutes = (url: URL, init?: RequestInit) => StubAnswer | Promise<StubAnswer> | undefined;

/** Replaces `fetch` with the given routes; returns the mock to inspect the calls made. */
export function stubApi(routes: StubRoutes) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://shop.test');
    const answer = (await routes(url, init)) ?? {
      status: 404,
      body: { message: `No stub for ${url.pathname}` },
    };
    return new Response(JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'Content-Type': 'application/json', ...answer.headers },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The URLs `fetch` was called with, as path and query. */
export function calledUrls(fetchMock: ReturnType<typeof stubApi>): string[] {
  return fetchMock.mock.calls.map(([input]) => {
    const url = new URL(String(input), 'http://shop.test');
    return url.pathname + url.search;
  });
}

/** A product of the tests, with any field overridden. */
export function testProduct(overrides: Partial<Product> = {}): Product {
  return {
    _id: 'p1',
    name: 'Glock 19 Gen 5',
    slug: 'glock-19-gen-5',
    image: ['/img/g19.jpg', '/img/g19-side.jpg'],
    category: 'Pistols',
    brand: 'Glock',
    price: 1249.5,
    countInStock: 3,
    description: 'A compact pistol with a marksman barrel and ambidextrous slide stop lever for all shooters',
    rating: 4.5,
    numReviews: 12,
    ...overrides,
  };
}

/** `GET /api/products/{id}` of one of these products, as the fresh read of add-to-cart asks for it. */
export function productById(products: readonly Product[], url: URL): StubAnswer | undefined {
  const match = /^\/api\/products\/([^/]+)$/.exec(url.pathname);
  if (!match) return undefined;
  const product = products.find((p) => p._id === decodeURIComponent(match[1]!));
  return product ? { body: product } : { status: 404, body: { message: 'Product Not Found' } };
}
