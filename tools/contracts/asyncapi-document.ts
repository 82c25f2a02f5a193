// The AsyncAPI 3 document of one service, built from its uses of NATS (nats-use.ts) and the payload
// schemas in @shop/contracts (message-schemas.ts); asyncapi.ts writes and checks the files.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOG_CHANGED, EVENTS_STREAM, eventSubject } from '@shop/contracts';
import {
  COMMAND_SCHEMAS,
  EVENT_DATA_SCHEMAS,
  type JsonSchema,
  PLAIN_MESSAGE_SCHEMAS,
  commandReplySchema,
  commandRequestSchema,
  eventEnvelopeSchema,
} from '@shop/contracts/message-schemas';
import { type NatsPart, type NatsUse, partPlace, repoRoot } from './nats-use.js';

/**
 * Plain NATS subjects (no JetStream, no command) and their payloads: those shared by several parts are
 * declared in @shop/contracts; one internal to a service is written here, its type in that service. A
 * new one must be added here before its service's document can be written.
 */
const PLAIN_SUBJECTS: Readonly<Record<string, { summary: string; payload: JsonSchema }>> = {
  [CATALOG_CHANGED]: {
    summary:
      'What the catalogue shows changed (a product created, edited or removed, or stock taken or given back): caches of it, such as rendered pages, drop what it names (at most once)',
    payload: PLAIN_MESSAGE_SCHEMAS[CATALOG_CHANGED]!,
  },
  'products.internal.catalogue-changed': {
    summary:
      "A products replica's own write changed the catalogue: the other replicas drop their cached answers (internal to products, at most once)",
    payload: {
      type: 'object',
      additionalProperties: false,
      required: ['from'],
      properties: {
        from: { type: 'string', minLength: 1, description: 'The replica that made the change' },
        productIds: {
          type: 'array',
          items: { type: 'string' },
          description: 'Absent: the catalogue changed, drop every answer',
        },
      },
    },
  },
};

export const asyncApiPath = (service: NatsPart, root = repoRoot) =>
  join(root, partPlace(service).dir, 'asyncapi.yaml');

/** `order.created` -> `orderCreated`, `products.internal.catalogue-changed` -> `productsInternalCatalogueChanged`. */
function channelId(name: string): string {
  return name.replace(/[.-](\w)/g, (_match, letter: string) => letter.toUpperCase());
}

const upperFirst = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const TRACE_HEADERS: JsonSchema = {
  type: 'object',
  properties: {
    traceparent: { type: 'string', description: 'W3C trace context of the PRODUCER span' },
    tracestate: { type: 'string' },
  },
};

/** Whether a subject is an event, a command or a plain subject, by the schemas that name it. */
export const kindOf = (name: string): 'event' | 'command' | 'plain' =>
  Object.hasOwn(EVENT_DATA_SCHEMAS, name)
    ? 'event'
    : Object.hasOwn(COMMAND_SCHEMAS, name)
      ? 'command'
      : 'plain';

function serviceVersion(service: NatsPart, root: string): string {
  const pkg = JSON.parse(readFileSync(join(root, partPlace(service).dir, 'package.json'), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

/** The AsyncAPI 3 document of one service, from its uses (throws for a subject without a schema). */
export function buildAsyncApi(service: NatsPart, uses: NatsUse[], root = repoRoot): Record<string, unknown> {
  const mine = uses.filter((use) => use.service === service);
  const channels: Record<string, unknown> = {};
  const operations: Record<string, unknown> = {};
  const messages: Record<string, unknown> = {};
  const channelRef = (id: string) => ({ $ref: `#/channels/${id}` });
  const messageRef = (channel: string, message: string) => ({
    $ref: `#/channels/${channel}/messages/${message}`,
  });
  const addChannel = (id: string, address: string | null, description: string, messageIds: string[]) => {
    channels[id] = {
      address,
      description,
      messages: Object.fromEntries(
        messageIds.map((message) => [message, { $ref: `#/components/messages/${message}` }]),
      ),
    };
  };

  const seen = new Set<string>();
  const sorted = [...mine].sort((a, b) => a.name.localeCompare(b.name) || a.role.localeCompare(b.role));
  for (const { role, name } of sorted) {
    const key = `${role} ${name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const id = channelId(name);
    const kind = kindOf(name);
    if (kind === 'event') {
      if (role !== 'publishes' && role !== 'consumes')
        throw new Error(`${service}: event ${name} is used as a ${role}; events are published and consumed`);
      const messageId = id;
      messages[messageId] = {
        name,
        title: `${name} event`,
        summary: `The ${name} event in its envelope (schemaVersion ${String((eventEnvelopeSchema(name)['properties'] as Record<string, JsonSchema>)['schemaVersion']?.['const'])})`,
        contentType: 'application/json',
        headers: TRACE_HEADERS,
        payload: eventEnvelopeSchema(name),
      };
      addChannel(
        id,
        eventSubject(name),
        `JetStream stream ${EVENTS_STREAM}: the ${name} event, de-duplicated by its id (Nats-Msg-Id)`,
        [messageId],
      );
      operations[`${role === 'publishes' ? 'publish' : 'consume'}${upperFirst(id)}`] = {
        action: role === 'publishes' ? 'send' : 'receive',
        channel: channelRef(id),
        summary:
          role === 'publishes'
            ? `Publishes ${name} through its outbox`
            : `Consumes ${name} from the ${EVENTS_STREAM} stream`,
        messages: [messageRef(id, messageId)],
      };
    } else if (kind === 'command') {
      if (role !== 'answers' && role !== 'requests')
        throw new Error(
          `${service}: command ${name} is used as a ${role}; commands are requested and answered`,
        );
      const requestId = `${id}Request`;
      const replyId = `${id}Reply`;
      messages[requestId] = {
        name: `${name} request`,
        title: `${name} request`,
        contentType: 'application/json',
        headers: TRACE_HEADERS,
        payload: commandRequestSchema(name),
      };
      messages[replyId] = {
        name: `${name} reply`,
        title: `${name} reply`,
        contentType: 'application/json',
        payload: commandReplySchema(name),
      };
      const owner = name.split('.')[0]!;
      addChannel(id, name, `Request/reply command answered by the ${owner} service (queue group ${owner})`, [
        requestId,
      ]);
      addChannel(replyId, null, "The requester's inbox (the request's reply subject)", [replyId]);
      operations[`${role === 'answers' ? 'answer' : 'request'}${upperFirst(id)}`] = {
        action: role === 'answers' ? 'receive' : 'send',
        channel: channelRef(id),
        summary: role === 'answers' ? `Answers ${name}` : `Sends ${name} and waits for the reply`,
        messages: [messageRef(id, requestId)],
        reply: { channel: channelRef(replyId), messages: [messageRef(replyId, replyId)] },
        ...(role === 'answers' ? { bindings: { nats: { queue: owner, bindingVersion: '0.1.0' } } } : {}),
      };
    } else {
      const plain = PLAIN_SUBJECTS[name];
      if (!plain)
        throw new Error(
          `${service}: NATS subject ${name} has no payload schema (add it to @shop/contracts or PLAIN_SUBJECTS in tools/contracts/asyncapi-document.ts)`,
        );
      if (role !== 'sends' && role !== 'receives')
        throw new Error(`${service}: subject ${name} is used as a ${role}`);
      messages[id] = {
        name,
        title: name,
        summary: plain.summary,
        contentType: 'application/json',
        payload: plain.payload,
      };
      addChannel(id, name, `Plain NATS subject: ${plain.summary}`, [id]);
      operations[`${role === 'sends' ? 'send' : 'receive'}${upperFirst(id)}`] = {
        action: role === 'sends' ? 'send' : 'receive',
        channel: channelRef(id),
        messages: [messageRef(id, id)],
      };
    }
  }

  return {
    asyncapi: '3.0.0',
    info: {
      title: `${partPlace(service).title}: NATS`,
      version: serviceVersion(service, root),
      description: `What the ${partPlace(service).title} publishes, consumes, requests and answers over NATS. Written by tools/contracts/asyncapi.ts from the code and the schemas in @shop/contracts; do not edit by hand (docs/contracts.md).`,
    },
    defaultContentType: 'application/json',
    servers: {
      nats: { host: 'localhost:4222', protocol: 'nats', description: 'NATS_URL of the service' },
    },
    channels: sortKeys(channels),
    operations: sortKeys(operations),
    components: { messages: sortKeys(messages) },
  };
}

function sortKeys(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
