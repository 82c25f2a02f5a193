import type { Product, ProductFacets } from '@shop/contracts';
import { PRODUCTS_API } from '@shop/contracts';
import { type StubAnswer, type StubCall, stubApi } from '@shop/ui/testing';

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
    lowStockThreshold: null,
    lowStock: false,
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

export interface CatalogStub {
  /** The list's page, whatever the query. */
  products: Product[];
  /** How many products match (`X-Total-Count`); the page's own number unless given. */
  total?: number;
  /** Another answer of the list instead (a failure). */
  list?: StubAnswer;
  facets: ProductFacets;
}

/** The catalogue API of the results screens: the list, its facets, and each listed product by id. */
export function stubCatalog({ products, total = products.length, list, facets }: CatalogStub) {
  return stubApi((call) => {
    if (call.path === PRODUCTS_API) {
      return list ?? { body: products, headers: { 'X-Total-Count': String(total) } };
    }
    if (call.path === `${PRODUCTS_API}/facets`) return { body: facets };
    return productById(products, call);
  });
}
