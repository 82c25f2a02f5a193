import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { type FacetCount, PRODUCT_MESSAGES, type Product, type ProductFacets } from '@shop/contracts';
import { findPage } from '@shop/service-kit';
import { type Model, isObjectIdOrHexString } from 'mongoose';
import {
  type ProductFilter,
  type ProductSearch,
  planProductFacets,
  planProductSearch,
} from './product-search';
import { PRODUCT_MODEL, type ProductRecord } from './product.schema';
import { PUBLIC_FIELDS, type StoredProduct, toProduct } from './product-views';

const LIVE = { deletedAt: null };
const NEWEST_FIRST = { createdAt: -1, _id: -1 } as const;

export interface ProductPage {
  products: Product[];
  /** How many products match, on every page. */
  total: number;
}

/** The catalogue as shoppers read it: live products only. */
@Injectable()
export class ProductsService {
  constructor(@InjectModel(PRODUCT_MODEL) private readonly products: Model<ProductRecord>) {}

  async search(search: ProductSearch): Promise<ProductPage> {
    checkPriceRange(search);
    const plan = planProductSearch(search);
    const { docs, total } = await findPage<ProductRecord, StoredProduct>(this.products, plan.filter, {
      select: PUBLIC_FIELDS,
      sort: plan.sort,
      page: plan.page,
    });
    return { products: docs.map(toProduct), total };
  }

  /** The categories and brands of the products a search matches, with their counts. */
  async facets(search: ProductFilter): Promise<ProductFacets> {
    checkPriceRange(search);
    const plan = planProductFacets(search);
    const [categories, brands] = await Promise.all([
      this.countBy('category', plan.category),
      this.countBy('brand', plan.brand),
    ]);
    return { categories, brands };
  }

  private async countBy(field: 'category' | 'brand', filter: Record<string, unknown>): Promise<FacetCount[]> {
    const groups = await this.products.aggregate<{ _id: unknown; count: number }>([
      { $match: filter },
      { $group: { _id: `$${field}`, count: { $sum: 1 } } },
    ]);
    return groups
      .map((group) => ({ value: String(group._id), count: group.count }))
      .sort((a, b) => a.value.localeCompare(b.value));
  }

  async byCategory(category: string): Promise<Product[]> {
    const docs = await this.products
      .find({ ...LIVE, category })
      .select(PUBLIC_FIELDS)
      .sort(NEWEST_FIRST)
      .lean<StoredProduct[]>();
    return docs.map(toProduct);
  }

  async categories(): Promise<string[]> {
    const names = await this.products.distinct('category', LIVE);
    return names.map(String).sort((a, b) => a.localeCompare(b));
  }

  async byId(id: string): Promise<Product> {
    if (!isObjectIdOrHexString(id)) throw new BadRequestException('Invalid product id');
    return this.found(
      await this.products
        .findOne({ ...LIVE, _id: id })
        .select(PUBLIC_FIELDS)
        .lean<StoredProduct>(),
    );
  }

  async bySlug(slug: string): Promise<Product> {
    return this.found(
      await this.products
        .findOne({ ...LIVE, slug })
        .select(PUBLIC_FIELDS)
        .lean<StoredProduct>(),
    );
  }

  private found(doc: StoredProduct | null): Product {
    if (!doc) throw new NotFoundException(PRODUCT_MESSAGES.notFound);
    return toProduct(doc);
  }
}

function checkPriceRange(search: ProductFilter): void {
  if (search.minPrice !== undefined && search.maxPrice !== undefined && search.minPrice > search.maxPrice) {
    throw new BadRequestException('minPrice must not be greater than maxPrice');
  }
}
