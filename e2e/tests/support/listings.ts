import type { Product } from '@shop/contracts';
import { solidPng } from '@shop/testing';
import { callApi, uploadImageThroughApi } from '../fixtures';

/** What the admin's listing screen sends to `POST /api/listings/create`. */
export type NewListing = Pick<
  Product,
  'name' | 'image' | 'category' | 'brand' | 'price' | 'countInStock' | 'description'
> &
  Partial<Pick<Product, 'slug' | 'lowStockThreshold'>>;

let listings = 0;

/** A seeded product's first picture: a listing of a test's own pictured without an upload. */
export async function seededPicture(baseURL: string): Promise<string[]> {
  const [seeded] = await callApi<Product[]>(baseURL, 'GET', '/api/products');
  if (!seeded) throw new Error('The shop has no seeded product to take a picture from');
  return seeded.image.slice(0, 1);
}

/** A picture uploaded through the media service as the admin would (a product's own, new file). */
export async function uploadedPicture(baseURL: string, adminToken: string, name: string): Promise<string[]> {
  return [await uploadImageThroughApi(baseURL, adminToken, name, solidPng())];
}

/**
 * A product of the test's own, created by the admin through the gateway: the fields given over plain values
 * (a name unique to the run, Accessories by E2E, 5 in stock at $100, a seeded product's picture). Each test
 * says what its product is made for.
 */
export async function createListing(
  baseURL: string,
  adminToken: string,
  fields: Partial<NewListing> & Pick<NewListing, 'description'>,
): Promise<Product> {
  listings += 1;
  const listing: NewListing = {
    name: `E2E product ${Date.now().toString(36)} ${listings}`,
    category: 'Accessories',
    brand: 'E2E',
    price: 100,
    countInStock: 5,
    ...fields,
    image: fields.image ?? (await seededPicture(baseURL)),
  };
  return callApi<Product>(baseURL, 'POST', '/api/listings/create', adminToken, listing);
}
