import {
  BadRequestException,
  ConflictException,
  Injectable,
  NotFoundException,
  type OnModuleInit,
} from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import {
  PRODUCT_DELETED,
  PRODUCT_MESSAGES,
  PRODUCT_UPDATED,
  type Product,
  type ProductDeletedEvent,
  type ProductDeletedResponse,
  type ProductUpdatedEvent,
} from '@shop/contracts';
import { OutboxRelayProvider, isDuplicateKey, newEvent, outboxPush } from '@shop/service-kit';
import { type Model, Types, isObjectIdOrHexString } from 'mongoose';
import { LowStockMonitor } from '../low-stock/low-stock.monitor';
import type { CreateProductDto, UpdateProductDto } from './dto/product-input.dto';
import { productSlug } from './product-slug';
import { PRODUCT_MODEL, type ProductRecord } from './product.schema';
import { PUBLIC_FIELDS, type StoredProduct, toProduct } from './product-views';

function checkedId(id: string): string {
  if (!isObjectIdOrHexString(id)) throw new BadRequestException('Invalid product id');
  return id;
}

function slugOrRefuse(slug: string): string {
  if (!slug) throw new BadRequestException('slug: give a slug of letters and digits (the name gives none)');
  return slug;
}

/** The fields an admin sets, as stored: what the input says, and the slug decided for it. */
function editableFields(input: CreateProductDto | UpdateProductDto, slug: string) {
  const { name, image, category, brand, price, countInStock, description, lowStockThreshold } = input;
  return {
    name,
    slug,
    image,
    category,
    brand,
    price,
    countInStock,
    description,
    // Absent (a client of an earlier release): the product keeps its own.
    ...(lowStockThreshold !== undefined && { lowStockThreshold }),
  };
}

function updatedEvent(
  productId: string,
  slug: string,
  input: CreateProductDto | UpdateProductDto,
): ProductUpdatedEvent {
  return newEvent(PRODUCT_UPDATED, {
    productId,
    slug,
    name: input.name,
    price: input.price,
    countInStock: input.countInStock,
  });
}

/**
 * The admin's changes to the catalogue. Each change and its event are one single-document write
 * (the in-document outbox), so an event is never lost and never sent for a change that failed.
 */
@Injectable()
export class ProductsAdminService implements OnModuleInit {
  constructor(
    @InjectModel(PRODUCT_MODEL) private readonly products: Model<ProductRecord>,
    private readonly relay: OutboxRelayProvider,
    private readonly lowStock: LowStockMonitor,
  ) {}

  /** The product as it is now, once the stock the admin set has been checked against its threshold. */
  private async answer(id: Types.ObjectId | string): Promise<Product> {
    await this.lowStock.recheck(String(id));
    const product = await this.products.findById(id).select(PUBLIC_FIELDS).lean<StoredProduct>();
    if (!product) throw new NotFoundException(PRODUCT_MESSAGES.notFound);
    return toProduct(product);
  }

  /** The unique slug index must exist before the first create relies on it for 409s. */
  async onModuleInit(): Promise<void> {
    await this.products.init();
  }

  async create(input: CreateProductDto): Promise<Product> {
    const _id = new Types.ObjectId();
    const slug = slugOrRefuse(productSlug(input.slug, input.name));
    const event = updatedEvent(_id.toHexString(), slug, input);
    try {
      await this.products.create({
        _id,
        ...editableFields(input, slug),
        // Reviews do not exist yet: a new product has none, whatever the client sent.
        rating: 0,
        numReviews: 0,
        deletedAt: null,
        outbox: [outboxPush(event).$push.outbox],
      });
    } catch (error) {
      if (isDuplicateKey(error)) throw new ConflictException(PRODUCT_MESSAGES.slugTaken);
      throw error;
    }
    this.relay.nudge(_id);
    return this.answer(_id);
  }

  /** Replaces the admin-editable fields; an empty slug keeps the current one, so links keep working. */
  async update(id: string, input: UpdateProductDto): Promise<Product> {
    checkedId(id);
    const current = await this.products.findOne({ _id: id, deletedAt: null }).select('slug').lean();
    if (!current) throw new NotFoundException(PRODUCT_MESSAGES.notFound);
    const slug = input.slug?.trim() ? slugOrRefuse(productSlug(input.slug, input.name)) : current.slug;
    const event = updatedEvent(id, slug, input);
    let updated: { _id: unknown } | null;
    try {
      updated = await this.relay.updateWithEvent<ProductRecord, { _id: unknown }>(
        this.products,
        { _id: id, deletedAt: null },
        { $set: editableFields(input, slug) },
        event,
        { projection: '_id' },
      );
    } catch (error) {
      if (isDuplicateKey(error)) throw new ConflictException(PRODUCT_MESSAGES.slugTaken);
      throw error;
    }
    if (!updated) throw new NotFoundException(PRODUCT_MESSAGES.notFound);
    return this.answer(id);
  }

  /**
   * Soft delete: the outbox lives in the product document, so a hard delete would lose the pending
   * `product.deleted`. The product leaves every read and reservation and its slug is freed.
   */
  async remove(id: string): Promise<ProductDeletedResponse> {
    checkedId(id);
    const current = await this.products.findOne({ _id: id, deletedAt: null }).select('slug').lean();
    if (!current) throw new NotFoundException(PRODUCT_MESSAGES.notFound);
    const event: ProductDeletedEvent = newEvent(PRODUCT_DELETED, { productId: id });
    const deleted = await this.relay.updateWithEvent(
      this.products,
      { _id: id, deletedAt: null },
      // A colon never appears in a real slug, so the freed value can never clash with one.
      { $set: { deletedAt: new Date(), deletedSlug: current.slug, slug: `deleted:${id}` } },
      event,
      { projection: '_id' },
    );
    if (!deleted) throw new NotFoundException(PRODUCT_MESSAGES.notFound);
    return { message: PRODUCT_MESSAGES.deleted };
  }
}
