import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Product } from '@shop/contracts';
import { type Model, isValidObjectId } from 'mongoose';
import { PRODUCT_MODEL, type ProductRecord } from './product.schema';

const PUBLIC_FIELDS = '_id name slug image category brand price countInStock description rating numReviews';

type StoredProduct = ProductRecord & { _id: unknown };

// Newest listings first; the id breaks ties so pages never shuffle.
const NEWEST_FIRST = { createdAt: -1, _id: -1 } as const;

function toProduct(doc: StoredProduct): Product {
  return { ...doc, _id: String(doc._id) };
}

@Injectable()
export class ProductsService {
  constructor(@InjectModel(PRODUCT_MODEL) private readonly products: Model<ProductRecord>) {}

  async list(): Promise<Product[]> {
    const docs = await this.products.find().select(PUBLIC_FIELDS).sort(NEWEST_FIRST).lean<StoredProduct[]>();
    return docs.map(toProduct);
  }

  async byCategory(category: string): Promise<Product[]> {
    const docs = await this.products
      .find({ category })
      .select(PUBLIC_FIELDS)
      .sort(NEWEST_FIRST)
      .lean<StoredProduct[]>();
    return docs.map(toProduct);
  }

  async categories(): Promise<string[]> {
    const names = await this.products.distinct('category');
    return names.map(String).sort((a, b) => a.localeCompare(b));
  }

  async byId(id: string): Promise<Product> {
    if (!isValidObjectId(id)) throw new BadRequestException('Invalid product id');
    return this.found(await this.products.findById(id).select(PUBLIC_FIELDS).lean<StoredProduct>());
  }

  async bySlug(slug: string): Promise<Product> {
    return this.found(await this.products.findOne({ slug }).select(PUBLIC_FIELDS).lean<StoredProduct>());
  }

  private found(doc: StoredProduct | null): Product {
    if (!doc) throw new NotFoundException('Product Not Found');
    return toProduct(doc);
  }
}
