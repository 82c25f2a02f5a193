// Where the code's uses of NATS (nats-use.ts) and the committed AsyncAPI documents disagree.
import { readFileSync } from 'node:fs';
import { EVENTS_SUBJECT_PREFIX } from '@shop/contracts';
import { parse } from 'yaml';
import { asyncApiPath, kindOf } from './asyncapi-document.js';
import { NATS_PARTS, type NatsPart, type Role, partPlace, repoRoot, scanNatsUse } from './nats-use.js';

interface DocumentOperation {
  action: 'send' | 'receive';
  channel: { $ref: string };
}

/** What a committed document says a service does: `<role> <name>` for each operation. */
function documentedUses(service: NatsPart, root: string): Set<string> {
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
  for (const service of NATS_PARTS) {
    const documented = documentedUses(service, root);
    const document = `${partPlace(service).dir}/asyncapi.yaml`;
    const inCode = new Set<string>();
    for (const use of uses.filter((candidate) => candidate.service === service)) {
      const key = `${use.role} ${use.name}`;
      inCode.add(key);
      if (!documented.has(key))
        problems.push(`${use.at}: ${service} ${key}, which ${document} does not name`);
    }
    for (const key of documented) {
      if (!inCode.has(key)) problems.push(`${document} says ${service} ${key}, which its code does not`);
    }
  }
  return [...new Set(problems)];
}
