// Writes and checks the AsyncAPI 3 document of every service (services/<name>/asyncapi.yaml) and of the
// catalog's render service (mf-catalog/asyncapi.yaml): the channels
// and operations come from what the code does on NATS (nats-use.ts), the payloads from the schemas in
// @shop/contracts (message-schemas.ts). docs/contracts.md says how they are used.
//
//   npx tsx tools/contracts/asyncapi.ts --write   # rewrite the documents after a change
//   npx tsx tools/contracts/asyncapi.ts           # fail when a document is not what the code says
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as prettier from 'prettier';
import { stringify } from 'yaml';
import { asyncApiPath, buildAsyncApi } from './asyncapi-document.js';
import { NATS_PARTS, type NatsPart, partPlace, repoRoot, scanNatsUse } from './nats-use.js';
export { natsMessageChecker } from './nats-check.js';
export { asyncApiPath } from './asyncapi-document.js';
export { documentDrift } from './asyncapi-drift.js';

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
export async function expectedDocuments(root = repoRoot): Promise<Map<NatsPart, string>> {
  const { uses, unresolved } = scanNatsUse(root);
  if (unresolved.length > 0) {
    throw new Error(
      `NATS calls whose subject is not a known constant:\n${unresolved.map((u) => `  ${u.at}: ${u.code}`).join('\n')}`,
    );
  }
  const documents = new Map<NatsPart, string>();
  for (const service of NATS_PARTS)
    documents.set(service, await renderAsyncApi(buildAsyncApi(service, uses, root)));
  return documents;
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
      console.log(`wrote ${partPlace(service).dir}/asyncapi.yaml`);
    } else {
      stale += 1;
      console.error(`${partPlace(service).dir}/asyncapi.yaml is not what the code says`);
    }
  }
  if (stale > 0) {
    console.error('run: npx tsx tools/contracts/asyncapi.ts --write');
    process.exit(1);
  }
}
