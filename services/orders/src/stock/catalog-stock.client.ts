import { Inject, Injectable, ServiceUnavailableException } from '@nestjs/common';
import type { ClientProxy } from '@nestjs/microservices';
import {
  PRODUCTS_RELEASE,
  PRODUCTS_RESERVE,
  type ReleaseStockReply,
  type ReleaseStockRequest,
  type ReserveStockReply,
  type ReserveStockRequest,
  type ReservedItem,
  type StockRequestItem,
} from '@shop/contracts';
import { SERVICE_CONTEXT, type ServiceContext, requestReply } from '@shop/service-kit';
import type { OrdersConfig } from '../config/orders.config';

/** Injection token of the NATS client that talks to the products service. */
export const PRODUCTS_CLIENT = Symbol('PRODUCTS_CLIENT');

function isReservedItem(value: unknown): value is ReservedItem {
  const item = value as Partial<ReservedItem> | null;
  return (
    typeof item?.productId === 'string' &&
    typeof item.name === 'string' &&
    typeof item.price === 'number' &&
    Number.isFinite(item.price) &&
    item.price >= 0 &&
    typeof item.image === 'string' &&
    typeof item.quantity === 'number'
  );
}

/**
 * The catalogue's stock, over NATS request/reply (`products.reserve` / `products.release`). Silence
 * becomes a 503 and a refusal keeps its status (409 out of stock, 404 unknown product).
 */
@Injectable()
export class CatalogStockClient {
  constructor(
    @Inject(PRODUCTS_CLIENT) private readonly client: ClientProxy,
    @Inject(SERVICE_CONTEXT) private readonly context: ServiceContext<OrdersConfig>,
  ) {}

  /**
   * Takes stock for every item, all or none, and answers the catalogue's name, price and image of
   * each, in the order asked. An answer that does not match the request is treated like no answer.
   */
  async reserve(reservationId: string, items: StockRequestItem[]): Promise<ReservedItem[]> {
    const reply = await requestReply<ReserveStockReply>(
      this.client,
      PRODUCTS_RESERVE,
      { reservationId, items } satisfies ReserveStockRequest,
      this.context.config.NATS_REQUEST_TIMEOUT_MS,
    );
    const answered = new Map<string, ReservedItem>();
    for (const item of Array.isArray(reply?.items) ? reply.items : []) {
      if (isReservedItem(item)) answered.set(item.productId, item);
    }
    const reserved = items.map((item) => answered.get(item.productId));
    const complete = reserved.every((item, i) => item !== undefined && item.quantity === items[i]?.quantity);
    if (reply?.reservationId !== reservationId || answered.size !== items.length || !complete) {
      this.context.logger.error({ reservationId, reply }, 'products.reserve answered something unusable');
      throw new ServiceUnavailableException('The products service gave an unusable answer, please try again');
    }
    return reserved as ReservedItem[];
  }

  /** Gives a reservation's stock back; safe to repeat (products releases once). */
  async release(reservationId: string): Promise<ReleaseStockReply> {
    return requestReply<ReleaseStockReply>(
      this.client,
      PRODUCTS_RELEASE,
      { reservationId } satisfies ReleaseStockRequest,
      this.context.config.NATS_REQUEST_TIMEOUT_MS,
    );
  }
}
