import { COMMAND_SCHEMA_VERSIONS } from '../commands/command-schema-versions';
import { eventEnvelopeOf } from '../events/event-envelope';
import { EVENT_TYPES } from '../events/event-types';
import {
  MEDIA_STORE_SEED_IMAGE,
  storeSeedImageReply,
  storeSeedImageRequest,
} from '../media/store-seed-image';
import { type JsonSchema, messageJsonSchema } from '../messages/fields';
import { CATALOG_CHANGED, catalogChangedMessage } from '../products/catalog-changed';
import {
  PRODUCTS_RELEASE,
  PRODUCTS_RESERVE,
  releaseStockReply,
  releaseStockRequest,
  reserveStockReply,
  reserveStockRequest,
} from '../products/stock-reservation';

/**
 * The JSON Schemas of every message the services exchange over NATS: the `data` of each event type,
 * its envelope, and the request and reply of each command. Each is derived from the zod schema declared
 * beside its subject (the one source of the message's TypeScript type too), and they are the payloads
 * of every service's AsyncAPI document (services/<name>/asyncapi.yaml, written by
 * `tools/contracts/asyncapi.ts --write`). Objects are closed (`additionalProperties: false`): a
 * producer that sends a field no schema names fails the captured-message check of the browser tests
 * (docs/contracts.md). Only the contract tooling needs them, so they are `@shop/contracts/message-schemas`,
 * not part of what the services and front-ends load.
 */
export type { JsonSchema };

/** The `data` of each event type. */
export const EVENT_DATA_SCHEMAS: Readonly<Record<string, JsonSchema>> = Object.fromEntries(
  Object.entries(EVENT_TYPES).map(([type, { data }]) => [type, messageJsonSchema(data)]),
);

/** The envelope every event travels in on `shop.events.<type>` (`EventEnvelope`), with its type's data. */
export function eventEnvelopeSchema(type: string): JsonSchema {
  const declared = EVENT_TYPES[type];
  if (!declared) throw new Error(`no schema for event type ${type}`);
  return messageJsonSchema(eventEnvelopeOf(type, declared.version, declared.data));
}

/** The request and reply (the `data` and `response` of NestJS's NATS packets) of each command. */
export const COMMAND_SCHEMAS: Readonly<Record<string, { request: JsonSchema; reply: JsonSchema }>> =
  Object.fromEntries(
    Object.entries({
      [PRODUCTS_RESERVE]: { request: reserveStockRequest, reply: reserveStockReply },
      [PRODUCTS_RELEASE]: { request: releaseStockRequest, reply: releaseStockReply },
      [MEDIA_STORE_SEED_IMAGE]: { request: storeSeedImageRequest, reply: storeSeedImageReply },
    }).map(([pattern, { request, reply }]) => [
      pattern,
      { request: messageJsonSchema(request), reply: messageJsonSchema(reply) },
    ]),
  );

/** The payload of each plain NATS subject (no JetStream, no command) declared in the contracts. */
export const PLAIN_MESSAGE_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  [CATALOG_CHANGED]: messageJsonSchema(catalogChangedMessage),
};

// NestJS's NATS packets around a command's request and reply: its transport's framing, not ours.
const idField = (description: string): JsonSchema => ({ type: 'string', minLength: 1, description });

/** A closed object whose every property is required unless named in `optional`. */
function object(properties: Record<string, JsonSchema>, optional: string[] = []): JsonSchema {
  return {
    type: 'object',
    additionalProperties: false,
    required: Object.keys(properties).filter((name) => !optional.includes(name)),
    properties,
  };
}

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
    id: idField("NestJS's request id"),
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
        { id: idField('The request id'), response: versioned(pattern, command.reply), isDisposed: disposed },
        ['isDisposed'],
      ),
      object(
        {
          id: idField('The request id'),
          // NestJS answers an exception that is no RpcException with `{ status: 'error' }`.
          err: object({
            status: { anyOf: [{ type: 'integer', minimum: 400, maximum: 599 }, { const: 'error' }] },
            message: { type: 'string' },
          }),
          isDisposed: disposed,
        },
        ['isDisposed'],
      ),
    ],
  };
}
