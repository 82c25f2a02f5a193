/** A product as the catalogue answers it (spec §3). */
export interface Product {
  _id: string;
  name: string;
  slug: string;
  /** Image URLs; the first is the card and cart image. */
  image: string[];
  category: string;
  brand: string;
  price: number;
  countInStock: number;
  description: string;
  /** 0 to 5. */
  rating: number;
  numReviews: number;
}

/** Where the catalogue is reachable, relative to the site root. */
export const PRODUCTS_API = '/api/products';
