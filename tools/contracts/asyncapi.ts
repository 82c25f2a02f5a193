// Writes and checks every service's AsyncAPI 3 document (services/<name>/asyncapi.yaml): the channels
// and operations come from what the code does on NATS (nats-use.ts), the payloads from the schemas in
// @shop/contracts (message-schemas.ts). docs/contracts.md says how they are used.
//
//   npx tsx tools/contracts/asyncapi.ts --write   # rewrite the documents after a change
//   npx tsx tools/contracts/asyncapi.ts           # fail when a document is not what the code says
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  COMMAND_SCHEMAS,
  EVENT_DATA_SCHEMAS,
  EVENTS_STREAM,
  EVENTS_SUBJECT_PREFIX,
  type JsonSchema,
  commandReplySchema,
  commandRequestSchema,
  eventEnvelopeSchema,
  eventSubject,
} from '@shop/contracts';
import * as prettier from 'prettier';
import { parse, stringify } from 'yaml';
export { natsMessageChecker } from '../src/contracts/nats-check.js';
import { type NatsUse, type Role, SERVICES, type ServiceName, repoRoot, scanNatsUse } from './nats-use.js';

/**
 * Plain NATS subjects (no JetStream, no command) and their payloads. Their types live in the service
 * that uses them; a new one must be added here before its service's document can be written.
 */
export const PLAIN_SUBJECTS: Readonly<Record<string, { summary: string; payload: JsonSchema }>> = {
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

export const asyncApiPath = (service: ServiceName, root = repoRoot) =>
  join(root, 'services', service, 'asyncapi.yaml');

/** `order.created` -> `orderCreated`, `products.internal.catalogue-changed` -> `productsInternalCatalogueChanged`. */
export function channelId(name: string): string {
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

const kindOf = (name: string): 'event' | 'command' | 'plain' =>
  Object.hasOwn(EVENT_DATA_SCHEMAS, name)
    ? 'event'
    : Object.hasOwn(COMMAND_SCHEMAS, name)
      ? 'command'
      : 'plain';

function serviceVersion(service: ServiceName, root: string): string {
  const pkg = JSON.parse(readFileSync(join(root, 'services', service, 'package.json'), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

/** The AsyncAPI 3 document of one service, from its uses (throws for a subject without a schema). */
export function buildAsyncApi(
  service: ServiceName,
  uses: NatsUse[],
  root = repoRoot,
): Record<string, unknown> {
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
          `${service}: NATS subject ${name} has no payload schema (add it to @shop/contracts or PLAIN_SUBJECTS in tools/contracts/asyncapi.ts)`,
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
      title: `${service} service: NATS`,
      version: serviceVersion(service, root),
      description: `What the ${service} service publishes, consumes, requests and answers over NATS. Written by tools/contracts/asyncapi.ts from the code and the schemas in @shop/contracts; do not edit by hand (docs/contracts.md).`,
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

const HEADER =
  '# Written by tools/contracts/asyncapi.ts from the code and @shop/contracts: run\n' +
  '# `npx tsx tools/contracts/asyncapi.ts --write` after a change, never edit by hand.\n';

/** The document as YAML, formatted the way `prettier --check` wants it. */
export async function renderAsyncApi(document: Record<string, unknown>): Promise<string> {
  const text = HEADER + stringify(document, { lineWidth: 0, aliasDuplicateObjects: false });
  const options = await prettier.resolveConfig(join(repoRoot, 'services', 'asyncapi.yaml'));
  return prettier.format(text, { ...options, parser: 'yaml' });
}

/** Each service's document as the code says it should read. */
export async function expectedDocuments(root = repoRoot): Promise<Map<ServiceName, string>> {
  const { uses, unresolved } = scanNatsUse(root);
  if (unresolved.length > 0) {
    throw new Error(
      `NATS calls whose subject is not a known constant:\n${unresolved.map((u) => `  ${u.at}: ${u.code}`).join('\n')}`,
    );
  }
  const documents = new Map<ServiceName, string>();
  for (const service of SERVICES)
    documents.set(service, await renderAsyncApi(buildAsyncApi(service, uses, root)));
  return documents;
}

interface DocumentOperation {
  action: 'send' | 'receive';
  channel: { $ref: string };
}

/** What a committed document says a service does: `<role> <name>` for each operation. */
function documentedUses(service: ServiceName, root: string): Set<string> {
  const document = parse(readFileSync(asyncApiPath(service, root), 'utf8')) as {
    channels: Record<string, { address: string | null }>;
    operations: Record<string, DocumentOperation>;
  };
  const uses = new Set<string>();
  for (const operation of Object.values(document.operations ?? {})) {
    const channel = document.channels[operation.channel.$ref.replace('#/channels/', '')];
    const address = channel?.address ?? '';
    const name = address.startsWith(EVENTS_SUBJECT_PREFIX)
      ? address.slice(EVENTS_SUBJECT_PREFIX.length)
      : address;
    const kind = kindOf(name);
    const role: Role =
      kind === 'event'
        ? operation.action === 'send'
          ? 'publishes'
          : 'consumes'
        : kind === 'command'
          ? operation.action === 'send'
            ? 'requests'
            : 'answers'
          : operation.action === 'send'
            ? 'sends'
            : 'receives';
    uses.add(`${role} ${name}`);
  }
  return uses;
}

/**
 * Where the code and the committed documents disagree, one line each, naming the subject and the
 * place in the code: a use no document names, or an operation a document names that the code no
 * longer has.
 */
export function documentDrift(root = repoRoot): string[] {
  const { uses, unresolved } = scanNatsUse(root);
  const problems = unresolved.map(
    (use) => `${use.at}: ${use.code} names a NATS subject that is not a known constant`,
  );
  for (const service of SERVICES) {
    const documented = documentedUses(service, root);
    const inCode = new Set<string>();
    for (const use of uses.filter((candidate) => candidate.service === service)) {
      const key = `${use.role} ${use.name}`;
      inCode.add(key);
      if (!documented.has(key))
        problems.push(`${use.at}: ${service} ${key}, which services/${service}/asyncapi.yaml does not name`);
    }
    for (const key of documented) {
      if (!inCode.has(key))
        problems.push(`services/${service}/asyncapi.yaml says ${service} ${key}, which its code does not`);
    }
  }
  return [...new Set(problems)];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const write = process.argv.includes('--write');
  let stale = 0;
  for (const [service, text] of await expectedDocuments()) {
    const path = asyncApiPath(service);
    let current = '';
    try {
      current = readFileSync(path, 'utf8');
    } catch {
      // missing: written below, or reported
    }
    if (current === text) continue;
    if (write) {
      writeFileSync(path, text);
      console.log(`wrote services/${service}/asyncapi.yaml`);
    } else {
      stale += 1;
      console.error(`services/${service}/asyncapi.yaml is not what the code says`);
    }
  }
  if (stale > 0) {
    console.error('run: npx tsx tools/contracts/asyncapi.ts --write');
    process.exit(1);
  }
}
