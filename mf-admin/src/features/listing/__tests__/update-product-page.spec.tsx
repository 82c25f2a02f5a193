import type { Product } from '@shop/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mediaUrl, renderScreen, ScriptedUpload, stubApi } from '@shop/ui/testing';
import UpdateProductPage from '../update-product-page';

const product: Product = {
  _id: '64b7f0000000000000000001',
  name: 'Glock 19',
  slug: 'glock-19',
  image: [mediaUrl('front.png'), mediaUrl('side.png', '0123456789abcdef01234568')],
  category: 'Pistols',
  brand: 'Glock',
  price: 599.99,
  countInStock: 4,
  description: 'Compact 9mm',
  rating: 4.5,
  numReviews: 10,
  lowStockThreshold: null,
  lowStock: false,
};

const renderUpdate = () =>
  renderScreen(<UpdateProductPage />, { path: '/update/:productId', url: `/update/${product._id}` });

describe('Update Product screen', () => {
  ScriptedUpload.forEachTest();
  afterEach(() => vi.unstubAllGlobals());

  it('fills the form with the product and saves the changes, stock 0 included, then goes home', async () => {
    const api = stubApi({
      [`GET /api/products/${product._id}`]: { body: product },
      'GET /api/products/categories': { body: ['Pistols'] },
      [`POST /api/products/update/${product._id}`]: { body: { ...product, countInStock: 0 } },
    });
    renderUpdate();

    expect(await screen.findByLabelText('Name')).toHaveValue('Glock 19');
    expect(screen.getByLabelText('Slogan')).toHaveValue('glock-19');
    expect(screen.getByLabelText('Price')).toHaveValue(599.99);
    expect(screen.getByAltText('Image 1: front.png')).toHaveAttribute('src', product.image[0]);
    expect(screen.getByLabelText('Count In Stock')).toHaveAttribute('min', '0');

    await userEvent.clear(screen.getByLabelText('Count In Stock'));
    await userEvent.type(screen.getByLabelText('Count In Stock'), '0');
    // Empty: the site's default; a number: the product's own.
    expect(screen.getByLabelText('Low stock threshold')).toHaveValue(null);
    await userEvent.type(screen.getByLabelText('Low stock threshold'), '2');
    await userEvent.click(screen.getByRole('button', { name: 'Remove image 1: front.png' }));
    await userEvent.click(screen.getByRole('button', { name: 'Update Product' }));

    expect(await screen.findByText('Product updated successfully!')).toBeInTheDocument();
    // The router navigates in a transition: it may render after the toast.
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(api.callsTo('POST', `/api/products/update/${product._id}`)[0]?.body).toEqual({
      name: 'Glock 19',
      slug: 'glock-19',
      image: [product.image[1]],
      category: 'Pistols',
      brand: 'Glock',
      price: 599.99,
      countInStock: 0,
      lowStockThreshold: 2,
      description: 'Compact 9mm',
    });
  });

  it('refuses to save once every image is removed', async () => {
    const api = stubApi({
      [`GET /api/products/${product._id}`]: { body: { ...product, image: [product.image[0]] } },
    });
    renderUpdate();

    await userEvent.click(await screen.findByRole('button', { name: 'Remove image 1: front.png' }));
    await userEvent.click(screen.getByRole('button', { name: 'Update Product' }));

    expect(await screen.findByText('You must upload at least one image')).toBeInTheDocument();
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('shows a spinner while loading, then the red alert for an unknown product', async () => {
    let answer: (value: { status: number; body: unknown }) => void = () => undefined;
    stubApi({
      [`GET /api/products/${product._id}`]: () => new Promise((resolve) => (answer = resolve)),
    });
    renderUpdate();

    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
    answer({ status: 404, body: { message: 'Product Not Found' } });
    expect(await screen.findByRole('alert')).toHaveTextContent('Product Not Found');
    await waitFor(() => expect(screen.queryByRole('status')).not.toBeInTheDocument());
    expect(screen.queryByLabelText('Name')).not.toBeInTheDocument();
  });
});
