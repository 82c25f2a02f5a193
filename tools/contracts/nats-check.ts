// Checks messages seen on NATS against the services' AsyncAPI documents (services/<name>/asyncapi.yaml):
// the browser tests capture every message of a running shop and validate each (e2e/tests/fuzz.spec.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { connect } from 'nats';
import { parse } from 'yaml';
import { repoRoot as findRepoRoot } from '@shop/infra/paths';

type JsonSchema = Record<string, unknown>;

const SERVICES = ['products', 'orders', 'users', 'wallet', 'data', 'media'] as const;
const defaultRoot = findRepoRoot();

/**
 * Validates messages seen on NATS against the documents: an event or plain subject by its address,
 * a command request by its subject, a reply by the inbox its request named. Answers the problem, or
 * undefined when the message matches its document.
 */
export function natsMessageChecker(root = defaultRoot): {
  check(subject: string, payload: unknown, replyTo?: string): string | undefined;
  /** Whether `subject` is the inbox of a command request checked before (its reply is awaited). */
  expects(subject: string): boolean;
  /** Every address a message was checked on. */
  seen: Set<string>;
} {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const bySubject = new Map<string, ReturnType<Ajv['compile']>>();
  const replies = new Map<string, ReturnType<Ajv['compile']>>();
  for (const service of SERVICES) {
    const document = parse(readFileSync(join(root, 'services', service, 'asyncapi.yaml'), 'utf8')) as {
      channels: Record<string, { address: string | null; messages: Record<string, { $ref: string }> }>;
      components: { messages: Record<string, { payload: JsonSchema }> };
    };
    for (const [id, channel] of Object.entries(document.channels)) {
      if (channel.address === null) continue;
      const [message] = Object.values(channel.messages);
      const payload =
        document.components.messages[message!.$ref.replace('#/components/messages/', '')]!.payload;
      if (!bySubject.has(channel.address)) bySubject.set(channel.address, ajv.compile(payload));
      const reply = document.components.messages[`${id}Reply`];
      if (reply && !replies.has(channel.address)) replies.set(channel.address, ajv.compile(reply.payload));
    }
  }
  const inboxes = new Map<string, string>();
  const seen = new Set<string>();
  const errors = (validate: ReturnType<Ajv['compile']>) =>
    (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message}`).join('; ');
  return {
    seen,
    expects: (subject) => inboxes.has(subject),
    check(subject, payload, replyTo) {
      const inboxOf = inboxes.get(subject);
      if (inboxOf !== undefined) {
        inboxes.delete(subject);
        const validate = replies.get(inboxOf)!;
        seen.add(`${inboxOf} reply`);
        return validate(payload) ? undefined : `reply to ${inboxOf}: ${errors(validate)}`;
      }
      const validate = bySubject.get(subject);
      if (!validate) return `${subject}: no AsyncAPI document names this subject`;
      seen.add(subject);
      if (replyTo && replies.has(subject)) inboxes.set(replyTo, subject);
      return validate(payload) ? undefined : `${subject}: ${errors(validate)}`;
    },
  };
}

/** What `watchNats` saw: every message on the broker, checked as it came. */
export interface NatsWatch {
  /** Messages seen. */
  count(): number;
  /** One line per message that does not match its document. */
  problems: string[];
  /** Subjects (and `<command> reply`) that carried a checked message. */
  seen: Set<string>;
  stop(): Promise<void>;
}

/**
 * Subscribes to every subject of the broker at `natsUrl` (`>`) and checks each message against the
 * documents; JetStream's own API traffic (`$JS.`, acknowledgements) and payloads that are not JSON
 * objects of the shop (`+OK`, heartbeats) are left out.
 */
export async function watchNats(natsUrl: string, root = defaultRoot): Promise<NatsWatch> {
  const checker = natsMessageChecker(root);
  const connection = await connect({ servers: natsUrl, name: 'contract-watch' });
  const subscription = connection.subscribe('>');
  const problems: string[] = [];
  let count = 0;
  const decoder = new TextDecoder();
  const done = (async () => {
    for await (const message of subscription) {
      if (message.subject.startsWith('$JS.') || message.subject.startsWith('$SYS.')) continue;
      // Replies of JetStream's API come to inboxes too: only inboxes a command named are replies here.
      if (message.subject.startsWith('_INBOX.') && !checker.expects(message.subject)) continue;
      count += 1;
      let payload: unknown;
      try {
        payload = JSON.parse(decoder.decode(message.data));
      } catch {
        problems.push(`${message.subject}: not JSON`);
        continue;
      }
      const problem = checker.check(message.subject, payload, message.reply);
      if (problem) problems.push(problem);
    }
  })();
  return {
    count: () => count,
    problems,
    seen: checker.seen,
    async stop() {
      await connection.drain();
      await done;
    },
  };
}
