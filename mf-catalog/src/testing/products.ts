import type { Product } from '@shop/contracts';
import { PRODUCTS_API } from '@shop/contracts';
import type { StubAnswer, StubCall } from '@shop/ui/testing';

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
export function productById(products: readonly Product[], call: StubCall): StubAnswer | undefined {
  if (!call.path.startsWith(`${PRODUCTS_API}/`)) return undefined;
  const id = decodeURIComponent(call.path.slice(PRODUCTS_API.length + 1));
  if (id.includes('/')) return undefined;
  const product = products.find((p) => p._id === id);
  return product ? { body: product } : { status: 404, body: { message: 'Product Not Found' } };
}
