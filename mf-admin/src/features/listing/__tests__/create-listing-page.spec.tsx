import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { vi } from 'vitest';
import { imageFile, mediaUrl, renderScreen, ScriptedUpload, stubApi } from '@shop/ui/testing';
import CreateListingPage from '../create-listing-page';

const created = { _id: 'p9', slug: 'compact-holster' };

function stubCatalog(createAnswer: { status: number; body: unknown } = { status: 201, body: created }) {
  return stubApi({
    'GET /api/products/categories': { body: ['Pistols', 'Accessories'] },
    'POST /api/listings/create': createAnswer,
  });
}

async function fillFields() {
  await userEvent.type(screen.getByLabelText('Name'), 'Compact Holster');
  await userEvent.type(screen.getByLabelText('Description'), 'Kydex, fits most compacts');
  await userEvent.type(screen.getByLabelText('Slogan'), 'compact-holster');
  await userEvent.type(screen.getByLabelText('Brand'), 'Safariland');
  await userEvent.type(screen.getByLabelText('Category'), 'Accessories');
  await userEvent.type(screen.getByLabelText('Price'), '49.5');
  await userEvent.type(screen.getByLabelText('Count In Stock'), '7');
}

describe('Create Listing screen', () => {
  const uploads = ScriptedUpload.forEachTest();
  afterEach(() => vi.unstubAllGlobals());

  it('uploads each chosen file with its own progress, then creates the listing with their URLs and goes home', async () => {
    const api = stubCatalog();
    renderScreen(<CreateListingPage />, { path: '/create-listing' });
    expect(screen.getByRole('heading', { level: 1, name: 'Create Listing' })).toBeInTheDocument();

    await userEvent.upload(screen.getByLabelText('Images'), [imageFile('front.png'), imageFile('side.png')]);
    expect(uploads.map((upload) => upload.fileName)).toEqual(['front.png', 'side.png']);
    act(() => uploads[0]!.progress(40));
    act(() => uploads[1]!.progress(75));
    expect(screen.getByRole('progressbar', { name: 'Upload of front.png' })).toHaveValue(40);
    expect(screen.getByRole('progressbar', { name: 'Upload of side.png' })).toHaveValue(75);
    expect(screen.getByRole('button', { name: 'Create Listing' })).toBeDisabled();

    act(() => uploads[1]!.answer(201, { url: mediaUrl('side.png') }));
    act(() => uploads[0]!.answer(201, { url: mediaUrl('front.png') }));
    const tiles = within(screen.getByRole('list', { name: 'Listing images' }));
    expect(await tiles.findByAltText('Image 1: front.png')).toHaveAttribute('src', mediaUrl('front.png'));
    expect(tiles.getByAltText('Image 2: side.png')).toHaveAttribute('src', mediaUrl('side.png'));
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();

    await fillFields();
    await userEvent.click(screen.getByRole('button', { name: 'Create Listing' }));

    expect(await screen.findByText('Product created to successfully!')).toBeInTheDocument();
    // The router navigates in a transition: it may render after the toast.
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(api.callsTo('POST', '/api/listings/create')[0]?.body).toEqual({
      name: 'Compact Holster',
      slug: 'compact-holster',
      image: [mediaUrl('front.png'), mediaUrl('side.png')],
      category: 'Accessories',
      brand: 'Safariland',
      price: 49.5,
      countInStock: 7,
      lowStockThreshold: null,
      description: 'Kydex, fits most compacts',
      rating: 0,
      numReviews: 0,
    });
  });

  it('refuses to create a listing without an image', async () => {
    const api = stubCatalog();
    renderScreen(<CreateListingPage />, { path: '/create-listing' });
    await fillFields();

    await userEvent.click(screen.getByRole('button', { name: 'Create Listing' }));

    expect(await screen.findByText('You must upload at least one image')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/listings/create')).toEqual([]);
  });

  it('refuses a choice that would make more than five images, uploading none of it', async () => {
    stubCatalog();
    renderScreen(<CreateListingPage />, { path: '/create-listing' });

    await userEvent.upload(screen.getByLabelText('Images'), [imageFile('1.png'), imageFile('2.png')]);
    await userEvent.upload(
      screen.getByLabelText('Images'),
      ['3.png', '4.png', '5.png', '6.png'].map((name) => imageFile(name)),
    );

    expect(await screen.findByText('You can only upload 5 images per listing')).toBeInTheDocument();
    expect(uploads).toHaveLength(2);
  });

  it('shows a refused upload with the spec message and the server’s reason, a throttled one with the server’s words, and sends neither', async () => {
    const api = stubCatalog();
    renderScreen(<CreateListingPage />, { path: '/create-listing' });

    await userEvent.upload(screen.getByLabelText('Images'), [
      imageFile('ok.png'),
      imageFile('bad.png'),
      imageFile('broken.png'),
      imageFile('late.png'),
    ]);
    act(() => uploads[0]!.answer(201, { url: mediaUrl('ok.png') }));
    act(() => uploads[1]!.answer(415, { message: 'Only PNG, JPEG, WebP and GIF images are accepted' }));
    act(() => uploads[2]!.answer(400, { message: 'The image is damaged or incomplete' }));
    act(() => uploads[3]!.answer(429, { message: 'Too many uploads, please try again later' }));

    const tiles = within(screen.getByRole('list', { name: 'Listing images' }));
    const alerts = await tiles.findAllByRole('alert');
    expect(alerts.map((alert) => alert.textContent)).toEqual([
      'Image upload failed (3 mb max per image) Only PNG, JPEG, WebP and GIF images are accepted',
      'Image upload failed (3 mb max per image) The image is damaged or incomplete',
      'Too many uploads, please try again later',
    ]);
    expect(tiles.getByText('The image is damaged or incomplete')).toBeVisible();

    await fillFields();
    await userEvent.click(screen.getByRole('button', { name: 'Create Listing' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/listings/create')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/listings/create')[0]?.body).toMatchObject({
      image: [mediaUrl('ok.png')],
    });
  });

  it('refuses a file over 3 MB without sending it, and a removed image leaves the listing', async () => {
    stubCatalog();
    renderScreen(<CreateListingPage />, { path: '/create-listing' });

    await userEvent.upload(screen.getByLabelText('Images'), [imageFile('huge.png', 3 * 1024 * 1024 + 1)]);

    expect(uploads).toHaveLength(0);
    const tiles = within(screen.getByRole('list', { name: 'Listing images' }));
    expect(tiles.getByText('Image upload failed (3 mb max per image)')).toBeInTheDocument();
    await userEvent.click(tiles.getByRole('button', { name: 'Remove image 1: huge.png' }));
    expect(screen.queryByRole('list', { name: 'Listing images' })).not.toBeInTheDocument();
  });

  it('shows a slug clash in the server’s words and keeps everything typed', async () => {
    stubCatalog({ status: 409, body: { message: 'A product with this slug already exists' } });
    renderScreen(<CreateListingPage />, { path: '/create-listing' });
    await userEvent.upload(screen.getByLabelText('Images'), [imageFile('front.png')]);
    act(() => uploads[0]!.answer(201, { url: mediaUrl('front.png') }));
    await fillFields();

    await userEvent.click(screen.getByRole('button', { name: 'Create Listing' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('A product with this slug already exists');
    expect(screen.getByLabelText('Name')).toHaveValue('Compact Holster');
    expect(screen.getByLabelText('Slogan')).toHaveValue('compact-holster');
    expect(screen.getByAltText('Image 1: front.png')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create Listing' })).toBeEnabled();
    expect(screen.getByTestId('location')).toHaveTextContent('/create-listing');
  });

  it('asks for at least one unit in stock and a price of at least 1', () => {
    stubCatalog();
    renderScreen(<CreateListingPage />, { path: '/create-listing' });

    expect(screen.getByLabelText('Count In Stock')).toHaveAttribute('min', '1');
    expect(screen.getByLabelText('Price')).toHaveAttribute('min', '1');
    for (const label of ['Name', 'Description', 'Brand', 'Category', 'Price', 'Count In Stock'])
      expect(screen.getByLabelText(label)).toBeRequired();
    expect(screen.getByLabelText('Slogan')).not.toBeRequired();
  });
});
