import { cartItemsAtom } from '@shop/state';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { currentLocation, renderScreen, type StubAnswer, stubApi } from '@shop/ui/testing';
import { testProduct } from '../../../testing/products';
import ProductPage from '../product-page';

const glock = testProduct({ image: ['/img/g19.jpg', '/img/g19-side.jpg', '/img/g19-top.jpg'] });

/** The slug call answers `bySlug`; the fresh read of add-to-cart answers `fresh`. */
function productApi(bySlug: StubAnswer, fresh: StubAnswer = bySlug) {
  return stubApi((call) => {
    if (call.path.startsWith('/api/products/slug/')) return bySlug;
    if (call.path === `/api/products/${glock._id}`) return fresh;
    return undefined;
  });
}

const renderProduct = (slug = glock.slug) =>
  renderScreen(<ProductPage />, { path: '/product/:slug', url: `/product/${slug}` });

describe('Product screen', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.unstubAllGlobals());

  it('shows name, rating with reviews, price, description, status and title', async () => {
    const fetchMock = productApi({ body: glock });
    renderProduct();

    expect(await screen.findByRole('heading', { level: 1, name: 'Glock 19 Gen 5' })).toBeInTheDocument();
    expect(document.title).toBe('Product Page Glock 19 Gen 5');
    expect(fetchMock.urls()).toEqual(['/api/products/slug/glock-19-gen-5']);
    expect(screen.getByRole('img', { name: 'Rated 4.5 out of 5' })).toBeInTheDocument();
    expect(screen.getByText('12 reviews')).toBeInTheDocument();
    expect(screen.getByText(glock.description)).toBeInTheDocument();
    const card = within(screen.getByRole('complementary', { name: 'Purchase' }));
    expect(card.getByText('$1,249.50')).toBeInTheDocument();
    expect(card.getByText('In Stock')).toBeInTheDocument();
    expect(card.getByRole('button', { name: 'Add to Cart' })).toBeEnabled();
  });

  it('tells link previews what the product is (canonical, Open Graph), leaving the JSON-LD to the server', async () => {
    productApi({ body: glock });
    renderProduct();
    await screen.findByRole('heading', { level: 1, name: 'Glock 19 Gen 5' });

    const head = (selector: string, attribute: string) =>
      document.head.querySelector(selector)?.getAttribute(attribute);
    expect(head('link[rel="canonical"]', 'href')).toBe(`${location.origin}/product/glock-19-gen-5`);
    expect(head('meta[property="og:title"]', 'content')).toBe('Glock 19 Gen 5');
    expect(head('meta[property="og:type"]', 'content')).toBe('product');
    expect(head('meta[name="description"]', 'content')).toBe(glock.description);
    // Crawlers read it in the page as it arrives (server/render-fragment.spec): the browser's bytes leave it out.
    expect(document.querySelectorAll('script[type="application/ld+json"]')).toHaveLength(0);
  });

  it('keeps an unknown product out of the index', async () => {
    productApi({ status: 404, body: { message: 'Product Not Found' } });
    renderProduct('no-such-product');
    expect(await screen.findByText('Product Not Found')).toBeInTheDocument();
    expect(document.head.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex');
    expect(document.head.querySelector('link[rel="canonical"]')).toBeNull();
  });

  it('shows one slide per picture with named arrows and bullets', async () => {
    productApi({ body: glock });
    renderProduct();

    const slider = within(await screen.findByRole('region', { name: 'Pictures of Glock 19 Gen 5' }));
    expect(slider.getByRole('img', { name: 'Glock 19 Gen 5' })).toHaveAttribute('src', '/img/g19.jpg');
    // The picture the page opens on is asked for first (a rendered page's code waits for it); not the others.
    expect(slider.getByRole('img', { name: 'Glock 19 Gen 5' })).toHaveAttribute('fetchpriority', 'high');
    expect(slider.getByRole('img', { name: 'Glock 19 Gen 5, picture 3' })).not.toHaveAttribute(
      'fetchpriority',
    );
    expect(slider.getByRole('img', { name: 'Glock 19 Gen 5, picture 3' })).toHaveAttribute('loading', 'lazy');
    await waitFor(() => expect(slider.getByRole('button', { name: 'Next picture' })).toBeInTheDocument());
    expect(slider.getByRole('button', { name: 'Previous picture' })).toBeInTheDocument();
    expect(slider.getByRole('group', { name: 'Picture 3 of 3' })).toBeInTheDocument();
    // jsdom lays nothing out, so Swiper counts one snap point here; the browser test counts the bullets.
    expect(slider.getAllByRole('button', { name: /^Go to picture \d$/ }).length).toBeGreaterThan(0);
  });

  it("shows 'Sold Out' and no Add to Cart button when the stock is 0", async () => {
    productApi({ body: { ...glock, countInStock: 0 } });
    renderProduct();

    expect(await screen.findByText('Sold Out')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add to Cart' })).not.toBeInTheDocument();
  });

  it("shows the red alert 'Product Not Found' for an unknown slug", async () => {
    productApi({ status: 404, body: { message: 'Product Not Found' } });
    renderProduct('no-such-product');

    expect(await screen.findByRole('alert')).toHaveTextContent('Product Not Found');
    // No product to name: the page's heading is the screen's, for screen readers only.
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(/^Product Page$/);
  });

  it("shows 'Product Not Found' for a malformed slug without asking the server", async () => {
    const fetchMock = productApi({ body: glock });
    renderProduct('Not%20A%20Slug!');

    expect(screen.getByRole('alert')).toHaveTextContent('Product Not Found');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("shows the server's message in a red alert when the product cannot be read", async () => {
    productApi({ status: 503, body: { message: 'Catalogue is unavailable' } });
    renderProduct();

    expect(screen.getByText('Loading...')).toBeInTheDocument();
    expect(await screen.findByRole('alert')).toHaveTextContent('Catalogue is unavailable');
  });

  it('adds to the cart with the stock read afresh, then goes to /cart', async () => {
    const fetchMock = productApi({ body: glock });
    const { store } = renderProduct();

    await userEvent.click(await screen.findByRole('button', { name: 'Add to Cart' }));

    expect(await screen.findByText('Product added to the cart')).toBeInTheDocument();
    await waitFor(() => expect(currentLocation.path).toBe('/cart'));
    expect(fetchMock.urls()).toContain(`/api/products/${glock._id}`);
    expect(store.get(cartItemsAtom)).toEqual([expect.objectContaining({ _id: glock._id, quantity: 1 })]);
  });

  it('raises the quantity of a product already in the cart', async () => {
    productApi({ body: glock });
    const { store } = renderProduct();
    store.set(cartItemsAtom, [{ ...glock, image: glock.image[0]!, quantity: 2 }]);

    await userEvent.click(await screen.findByRole('button', { name: 'Add to Cart' }));

    await waitFor(() => expect(currentLocation.path).toBe('/cart'));
    expect(store.get(cartItemsAtom)).toEqual([expect.objectContaining({ _id: glock._id, quantity: 3 })]);
  });

  it('refuses, and stays on the page, when the fresh stock is already all in the cart', async () => {
    productApi({ body: glock }, { body: { ...glock, countInStock: 1 } });
    const { store } = renderProduct();
    store.set(cartItemsAtom, [{ ...glock, image: glock.image[0]!, quantity: 1 }]);

    await userEvent.click(await screen.findByRole('button', { name: 'Add to Cart' }));

    expect(await screen.findByText('Sorry. Product is out of stock')).toBeInTheDocument();
    expect(currentLocation.path).toBe(`/product/${glock.slug}`);
    expect(store.get(cartItemsAtom)).toEqual([expect.objectContaining({ quantity: 1 })]);
  });
});
