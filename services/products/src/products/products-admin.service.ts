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
import {
  type AuthenticatedUser,
  OutboxRelayProvider,
  adminActionEvent,
  changedFields,
  isDuplicateKey,
  newEvent,
  outboxPush,
  stillHolding,
} from '@shop/service-kit';
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

/** The fields `editableFields` writes, as stored: what the audit trail compares before and after. */
const EDITABLE_FIELDS = 'name slug image category brand price countInStock description lowStockThreshold';

type EditableFields = Pick<
  ProductRecord,
  'name' | 'slug' | 'image' | 'category' | 'brand' | 'price' | 'countInStock' | 'description'
> & { lowStockThreshold?: number | null };

/** How often an update reads the product again when it changed between the read and the write. */
const MAX_UPDATE_ATTEMPTS = 5;

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

  async create(admin: AuthenticatedUser, input: CreateProductDto): Promise<Product> {
    const _id = new Types.ObjectId();
    const slug = slugOrRefuse(productSlug(input.slug, input.name));
    const event = updatedEvent(_id.toHexString(), slug, input);
    const fields = editableFields(input, slug);
    const audit = adminActionEvent({
      actor: admin,
      action: 'product.created',
      target: { type: 'product', id: _id.toHexString(), label: input.name },
      before: null,
      after: fields,
    });
    try {
      await this.products.create({
        _id,
        ...fields,
        // Reviews do not exist yet: a new product has none, whatever the client sent.
        rating: 0,
        numReviews: 0,
        deletedAt: null,
        outbox: [event, audit].map((each) => outboxPush(each).$push.outbox),
      });
    } catch (error) {
      if (isDuplicateKey(error)) throw new ConflictException(PRODUCT_MESSAGES.slugTaken);
      throw error;
    }
    this.relay.nudge(_id);
    return this.answer(_id);
  }

  /**
   * Replaces the admin-editable fields; an empty slug keeps the current one, so links keep working. The
   * write only matches while the product still holds what was read (orders take stock meanwhile): the
   * audit trail's "before" is then exactly what the change replaced.
   */
  async update(admin: AuthenticatedUser, id: string, input: UpdateProductDto): Promise<Product> {
    checkedId(id);
    for (let attempt = 0; attempt < MAX_UPDATE_ATTEMPTS; attempt += 1) {
      const current = await this.products
        .findOne({ _id: id, deletedAt: null })
        .select(EDITABLE_FIELDS)
        .lean<EditableFields & { _id: unknown }>();
      if (!current) throw new NotFoundException(PRODUCT_MESSAGES.notFound);
      const { _id: _ignored, ...before } = current;
      const slug = input.slug?.trim() ? slugOrRefuse(productSlug(input.slug, input.name)) : current.slug;
      const fields = editableFields(input, slug);
      const after = { ...before, ...fields };
      const changed = Object.keys(changedFields(before, after).after);
      const audit = adminActionEvent({
        actor: admin,
        action:
          changed.length === 1 && changed[0] === 'countInStock' ? 'product.stock-changed' : 'product.updated',
        target: { type: 'product', id, label: input.name },
        before,
        after,
      });
      let updated: { _id: unknown } | null;
      try {
        updated = await this.relay.updateWithEvent<ProductRecord, { _id: unknown }>(
          this.products,
          { _id: id, deletedAt: null, ...stillHolding(before) },
          { $set: fields },
          [updatedEvent(id, slug, input), audit],
          { projection: '_id' },
        );
      } catch (error) {
        if (isDuplicateKey(error)) throw new ConflictException(PRODUCT_MESSAGES.slugTaken);
        throw error;
      }
      if (updated) return this.answer(id);
    }
    throw new ConflictException('The product changed meanwhile, please try again');
  }

  /**
   * Soft delete: the outbox lives in the product document, so a hard delete would lose the pending
   * `product.deleted`. The product leaves every read and reservation and its slug is freed.
   */
  async remove(admin: AuthenticatedUser, id: string): Promise<ProductDeletedResponse> {
    checkedId(id);
    const current = await this.products
      .findOne({ _id: id, deletedAt: null })
      .select('name slug countInStock')
      .lean<Pick<ProductRecord, 'name' | 'slug' | 'countInStock'>>();
    if (!current) throw new NotFoundException(PRODUCT_MESSAGES.notFound);
    const event: ProductDeletedEvent = newEvent(PRODUCT_DELETED, { productId: id });
    const audit = adminActionEvent({
      actor: admin,
      action: 'product.deleted',
      target: { type: 'product', id, label: current.name },
      before: { name: current.name, slug: current.slug, countInStock: current.countInStock },
      after: null,
    });
    const deleted = await this.relay.updateWithEvent(
      this.products,
      // The slug read is the one the record keeps as deletedSlug.
      { _id: id, deletedAt: null, slug: current.slug },
      // A colon never appears in a real slug, so the freed value can never clash with one.
      { $set: { deletedAt: new Date(), deletedSlug: current.slug, slug: `deleted:${id}` } },
      [event, audit],
      { projection: '_id' },
    );
    if (!deleted) throw new NotFoundException(PRODUCT_MESSAGES.notFound);
    return { message: PRODUCT_MESSAGES.deleted };
  }
}
