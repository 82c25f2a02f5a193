import { COMMAND_SCHEMA_VERSIONS } from '../commands/command-schema-versions';
import { ORDER_CREATED } from '../events/order-created.event';
import { ORDER_DELETED } from '../events/order-deleted.event';
import { ORDER_DELIVERED } from '../events/order-delivered.event';
import { ORDER_PAID } from '../events/order-paid.event';
import { PRODUCT_DELETED } from '../events/product-deleted.event';
import { PRODUCT_UPDATED } from '../events/product-updated.event';
import { EVENT_SCHEMA_VERSIONS } from '../events/schema-version';
import { SETTINGS_UPDATED } from '../events/settings-updated.event';
import { USER_DELETED } from '../events/user-deleted.event';
import { USER_PASSWORD_RESET } from '../events/user-password-reset.event';
import { USER_PROMOTED } from '../events/user-promoted.event';
import { WALLET_UPDATED } from '../events/wallet-updated.event';
import { MEDIA_STORE_SEED_IMAGE } from '../media/store-seed-image';
import { PAYMENT_METHODS } from '../orders/pricing';
import { PRODUCTS_RELEASE, PRODUCTS_RESERVE } from '../products/stock-reservation';

/**
 * The JSON Schemas (draft-07, which AsyncAPI 3's schema format extends) of every message the services
 * exchange over NATS: the `data` of each event type and the request and reply of each command. They are
 * the one source of the payloads in every service's AsyncAPI document (services/<name>/asyncapi.yaml,
 * written by `tools/contracts/asyncapi.ts --write`), and say exactly what the TypeScript types beside
 * the events and commands say: src/asyncapi/message-schemas.spec.ts validates a value of each type
 * against its schema. Objects are closed (`additionalProperties: false`): a producer that sends a
 * field no schema names fails the captured-message check of the browser tests (docs/contracts.md).
 */
export type JsonSchema = { [key: string]: unknown };

const id = (description: string): JsonSchema => ({ type: 'string', minLength: 1, description });
const text: JsonSchema = { type: 'string' };
const isoDate = (description: string): JsonSchema => ({ type: 'string', format: 'date-time', description });
const money = (description: string): JsonSchema => ({ type: 'number', minimum: 0, description });
const count = (description: string): JsonSchema => ({ type: 'integer', minimum: 0, description });
const positive = (description: string): JsonSchema => ({ type: 'integer', minimum: 1, description });

/** A closed object whose every property is required unless named in `optional`. */
function object(properties: Record<string, JsonSchema>, optional: string[] = []): JsonSchema {
  return {
    type: 'object',
    additionalProperties: false,
    required: Object.keys(properties).filter((name) => !optional.includes(name)),
    properties,
  };
}

const array = (items: JsonSchema): JsonSchema => ({ type: 'array', items });

/** The `data` of each event type. */
export const EVENT_DATA_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  [ORDER_CREATED]: object({
    orderId: id('The new order'),
    userId: id('The customer who placed it'),
    items: array(
      object({
        productId: id('A product of the catalogue'),
        quantity: positive('How many'),
        price: money('Unit price the order was priced with'),
      }),
    ),
    paymentMethod: { type: 'string', enum: [...PAYMENT_METHODS] },
    totalPrice: money('What the customer pays, shipping and tax included'),
  }),
  [ORDER_PAID]: object({
    orderId: id('The order'),
    userId: id('Its customer'),
    status: { type: 'string', enum: ['Pending', 'Paid'] },
    by: { type: 'string', enum: ['customer', 'admin'] },
    paidAt: isoDate('When the customer paid (or the admin confirmed, without a receipt)'),
    totalPrice: money('The order total'),
  }),
  [ORDER_DELIVERED]: object({
    orderId: id('The order'),
    userId: id('Its customer'),
    deliveredAt: isoDate('When the admin marked it delivered'),
  }),
  [ORDER_DELETED]: object({
    orderId: id('The deleted order'),
    userId: id('Its customer'),
    items: array(object({ productId: id('A product'), quantity: positive('How many') })),
    wasPaid: { type: 'boolean' },
    stockReturned: { type: 'boolean', description: 'Whether its stock goes back (never confirmed paid)' },
  }),
  [PRODUCT_UPDATED]: object({
    productId: id('The product'),
    slug: text,
    name: text,
    price: money('Unit price'),
    countInStock: count('The stock the admin set (not a live level)'),
  }),
  [PRODUCT_DELETED]: object({ productId: id('The deleted product') }),
  [SETTINGS_UPDATED]: object({
    settingsId: id('The settings document'),
    siteName: text,
    currency: text,
    logo: text,
  }),
  [USER_DELETED]: object({ userId: id('The deleted account: its tokens are refused from now on') }),
  [USER_PROMOTED]: object({ userId: id('The account made an admin') }),
  [USER_PASSWORD_RESET]: object({
    userId: id('The account'),
    sessionsValidFrom: count('Seconds since the epoch: tokens issued earlier are refused'),
    via: { type: 'string', enum: ['reset', 'profile'] },
  }),
  [WALLET_UPDATED]: object({
    walletId: id('The wallet'),
    paymentMethod: text,
    paymentDetails: text,
    qrCode: text,
  }),
};

/** The envelope every event travels in on `shop.events.<type>` (`EventEnvelope`), with its type's data. */
export function eventEnvelopeSchema(type: string): JsonSchema {
  const data = EVENT_DATA_SCHEMAS[type];
  if (!data) throw new Error(`no schema for event type ${type}`);
  return object({
    id: id('Unique event id, also the Nats-Msg-Id the stream de-duplicates by'),
    type: { type: 'string', const: type },
    schemaVersion: {
      type: 'integer',
      const: EVENT_SCHEMA_VERSIONS[type],
      description: 'The schema version of `data` (EVENT_SCHEMA_VERSIONS); none means the first',
    },
    occurredAt: isoDate('When it happened'),
    data,
  });
}

const stockItems = array(object({ productId: id('A product'), quantity: positive('How many') }));

/** The request and reply (the `data` and `response` of NestJS's NATS packets) of each command. */
export const COMMAND_SCHEMAS: Readonly<Record<string, { request: JsonSchema; reply: JsonSchema }>> = {
  [PRODUCTS_RESERVE]: {
    request: object({ reservationId: id("The caller's key: the new order's id"), items: stockItems }),
    reply: object({
      reservationId: id('The reservation'),
      items: array(
        object({
          productId: id('A product'),
          name: text,
          price: money('Unit price as the catalogue holds it'),
          image: { type: 'string', description: "First product image URL, or ''" },
          quantity: positive('How many'),
        }),
      ),
    }),
  },
  [PRODUCTS_RELEASE]: {
    request: object({ reservationId: id('The reservation to give back') }),
    reply: object({
      reservationId: id('The reservation'),
      released: { type: 'boolean', description: 'Whether this call gave the stock back' },
    }),
  },
  [MEDIA_STORE_SEED_IMAGE]: {
    request: object({
      seedKey: { type: 'string', pattern: '^[a-z0-9-]+$' },
      fileName: text,
      contentBase64: { type: 'string', contentEncoding: 'base64' },
    }),
    reply: object({ url: { type: 'string', pattern: '^/api/media/' } }),
  },
};

/** A command's request or reply body with the `schemaVersion` it carries on the wire. */
function versioned(pattern: string, body: JsonSchema): JsonSchema {
  const properties = body['properties'] as Record<string, JsonSchema>;
  return object({
    ...properties,
    schemaVersion: {
      type: 'integer',
      const: COMMAND_SCHEMA_VERSIONS[pattern],
      description: 'The schema version of the command (COMMAND_SCHEMA_VERSIONS); none means the first',
    },
  });
}

/**
 * A command's request as NestJS's NATS transport sends it: `{ pattern, data, id }`, `data` the request
 * with its `schemaVersion`.
 */
export function commandRequestSchema(pattern: string): JsonSchema {
  const command = COMMAND_SCHEMAS[pattern];
  if (!command) throw new Error(`no schema for command ${pattern}`);
  return object({
    pattern: { type: 'string', const: pattern },
    data: versioned(pattern, command.request),
    id: id("NestJS's request id"),
  });
}

/**
 * A command's reply as NestJS's NATS transport sends it to the requester's inbox: `{ id, response }`
 * with the reply and its `schemaVersion`, or `{ id, err }` with a refusal `{ status, message }`.
 */
export function commandReplySchema(pattern: string): JsonSchema {
  const command = COMMAND_SCHEMAS[pattern];
  if (!command) throw new Error(`no schema for command ${pattern}`);
  const disposed = { type: 'boolean' };
  return {
    oneOf: [
      object(
        { id: id('The request id'), response: versioned(pattern, command.reply), isDisposed: disposed },
        ['isDisposed'],
      ),
      object(
        {
          id: id('The request id'),
          // NestJS answers an exception that is no RpcException with `{ status: 'error' }`.
          err: object({
            status: { anyOf: [{ type: 'integer', minimum: 400, maximum: 599 }, { const: 'error' }] },
            message: text,
          }),
          isDisposed: disposed,
        },
        ['isDisposed'],
      ),
    ],
  };
}
