import { Schema } from 'mongoose';

export interface ProductRecord {
  name: string;
  slug: string;
  image: string[];
  category: string;
  brand: string;
  price: number;
  countInStock: number;
  description: string;
  rating: number;
  numReviews: number;
}

export const PRODUCT_MODEL = 'Product';

export const productSchema = new Schema<ProductRecord>(
  {
    name: { type: String, required: true, trim: true },
    slug: { type: String, required: true, unique: true },
    image: { type: [String], default: [] },
    category: { type: String, required: true, index: true },
    brand: { type: String, required: true, index: true },
    price: { type: Number, required: true, min: 0, index: true },
    countInStock: { type: Number, required: true, min: 0 },
    description: { type: String, required: true },
    rating: { type: Number, required: true, min: 0, max: 5, default: 0 },
    numReviews: { type: Number, required: true, min: 0, default: 0 },
  },
  { timestamps: true, versionKey: false },
);
