import { MEDIA_VARIANT_WIDTHS, type Product } from '@shop/contracts';
import { cartItemsAtom, siteSettingsAtom } from '@shop/state';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen, stubApi } from '@shop/ui/testing';
import { productById, testProduct } from '../../../testing/products';
import HomePage from '../home-page';

const product = testProduct;

const catalog: Product[] = [
  product({}),
  product({
    _id: 'p2',
    name: 'Leather Holster',
    slug: 'leather-holster',
    description: 'Fits most frames',
    countInStock: 0,
    price: 39,
    rating: 3,
    numReviews: 1,
  }),
];

/** The list call answers `status`/`body`; a product's own call answers `fresh` (the catalog by default). */
function answer(status: number, body: unknown, fresh: Product[] = catalog) {
  return stubApi((call) => (call.path === '/api/products' ? { status, body } : productById(fresh, call)));
}

function renderHome() {
  const store = createStore();
  store.set(siteSettingsAtom, { websiteName: 'Glock Store', currency: '$', logo: '' });
  return renderScreen(<HomePage />, { path: '/', store }).store;
}

describe('Home screen', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.unstubAllGlobals());

  it('shows a card per product with its first image, name link, price and rating', async () => {
    const fetchMock = answer(200, catalog);
    renderHome();

    const cards = await screen.findAllByRole('article');
    expect(cards).toHaveLength(2);
    expect(fetchMock).toHaveBeenCalledWith('/api/products', expect.anything());

    const first = within(cards[0]!);
    expect(first.getByAltText('Glock 19 Gen 5')).toHaveAttribute('src', '/img/g19.jpg');
    expect(first.getByRole('link', { name: 'Glock 19 Gen 5' })).toHaveAttribute(
      'href',
      '/product/glock-19-gen-5',
    );
    expect(first.getByText('$1,249.50')).toBeInTheDocument();
    expect(first.getByRole('img', { name: 'Rated 4.5 out of 5' })).toBeInTheDocument();
    expect(first.getByText('12 reviews')).toBeInTheDocument();
  });

  it('cuts descriptions to ten words followed by " ....."', async () => {
    answer(200, catalog);
    renderHome();

    expect(
      await screen.findByText('A compact pistol with a marksman barrel and ambidextrous slide .....'),
    ).toBeInTheDocument();
    expect(screen.getByText('Fits most frames')).toBeInTheDocument();
  });

  it('shows a disabled Sold Out button for a product out of stock', async () => {
    answer(200, catalog);
    renderHome();

    const [, soldOut] = await screen.findAllByRole('article');
    expect(within(soldOut!).getByRole('button', { name: 'Sold Out' })).toBeDisabled();
    expect(within(soldOut!).queryByRole('button', { name: 'Add to Cart' })).not.toBeInTheDocument();
  });

  it('adds to the cart with a toast and stays on the page', async () => {
    answer(200, catalog);
    const store = renderHome();

    const [first] = await screen.findAllByRole('article');
    await userEvent.click(within(first!).getByRole('button', { name: 'Add to Cart' }));

    expect(await screen.findByText('Product added to the cart')).toBeInTheDocument();
    expect(store.get(cartItemsAtom)).toEqual([
      expect.objectContaining({ _id: 'p1', quantity: 1, image: '/img/g19.jpg' }),
    ]);
    expect(screen.getByRole('heading', { level: 1, name: 'Featured Products' })).toBeInTheDocument();
  });

  it('warns instead of adding beyond the stock', async () => {
    answer(200, [product({ countInStock: 1 })], [product({ countInStock: 1 })]);
    const store = renderHome();

    const button = await screen.findByRole('button', { name: 'Add to Cart' });
    await userEvent.click(button);
    await userEvent.click(button);

    expect(await screen.findByText('Sorry. Product is out of stock')).toBeInTheDocument();
    expect(store.get(cartItemsAtom)).toEqual([expect.objectContaining({ quantity: 1 })]);
  });

  it('reads the stock afresh when adding, refusing what the list still showed in stock', async () => {
    const fetchMock = answer(200, catalog, [product({ countInStock: 0 })]);
    const store = renderHome();

    const [first] = await screen.findAllByRole('article');
    await userEvent.click(within(first!).getByRole('button', { name: 'Add to Cart' }));

    expect(await screen.findByText('Sorry. Product is out of stock')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith('/api/products/p1', expect.anything());
    expect(store.get(cartItemsAtom)).toEqual([]);
  });

  it("shows a red alert with the server's message when the list fails", async () => {
    answer(503, { message: 'Catalogue is unavailable' });
    renderHome();

    expect(await screen.findByRole('alert')).toHaveTextContent('Catalogue is unavailable');
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
  });

  it('shows a spinner while loading and uses the site name as the page title', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>(() => {})),
    );
    renderHome();

    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
    expect(document.title).toBe('Glock Store');
  });
});

describe('Home screen pictures', () => {
  afterEach(() => vi.unstubAllGlobals());

  const mediaUrl = (n: number) => `/api/media/65a1f0c2e4b0a1b2c3d4e5f${n}/1767225600000-product-${n}.png`;
  /** Six products with pictures of our media service, then one whose picture lives elsewhere. */
  const grid: Product[] = [
    ...Array.from({ length: 6 }, (_, n) =>
      product({ _id: `p${n}`, name: `Product ${n}`, slug: `product-${n}`, image: [mediaUrl(n)] }),
    ),
    product({ _id: 'ext', name: 'Elsewhere', slug: 'elsewhere', image: ['https://cdn.example/x.jpg'] }),
  ];

  async function pictures() {
    answer(200, grid);
    renderHome();
    await screen.findAllByRole('article');
    return grid.map((p) => screen.getByAltText(p.name));
  }

  it('offers every resized variant of our media service with the sizes the grid draws, in a 4:3 box', async () => {
    const images = await pictures();

    images.slice(0, 6).forEach((img, n) => {
      expect(img).toHaveAttribute('src', mediaUrl(n));
      expect(img).toHaveAttribute(
        'srcset',
        MEDIA_VARIANT_WIDTHS.map((w) => `${mediaUrl(n)}?w=${w} ${w}w`).join(', '),
      );
      expect(img.getAttribute('sizes')).toMatch(/^\(min-width: 1320px\) 310px, .*, calc\(100vw - 32px\)$/);
      expect(img).toHaveAttribute('width', '640');
      expect(img).toHaveAttribute('height', '480');
      expect(img).toHaveAttribute('decoding', 'async');
    });
  });

  it('loads the first row at once and first, and the rest only when scrolled to', async () => {
    const images = await pictures();

    for (const img of images.slice(0, 4)) {
      expect(img).toHaveAttribute('loading', 'eager');
      expect(img).toHaveAttribute('fetchpriority', 'high');
    }
    for (const img of images.slice(4)) {
      expect(img).toHaveAttribute('loading', 'lazy');
      expect(img).not.toHaveAttribute('fetchpriority');
    }
  });

  it('keeps a plain src for a picture that is not ours', async () => {
    const external = (await pictures()).at(-1)!;

    expect(external).toHaveAttribute('src', 'https://cdn.example/x.jpg');
    expect(external).not.toHaveAttribute('srcset');
    expect(external).not.toHaveAttribute('sizes');
    expect(external).toHaveAttribute('width', '640');
    expect(external).toHaveAttribute('height', '480');
  });
});
