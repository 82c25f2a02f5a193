// The breaking-change gate (docs/contracts.md). For each service, its OpenAPI
// (services/<name>/openapi.json) and AsyncAPI (services/<name>/asyncapi.yaml) documents are compared
// with those of its previous release, the commit releases.json names under `services`, read with
// `git show`. OpenAPI: oasdiff's breaking-changes check (its errors; warnings are shown). AsyncAPI:
// @asyncapi/diff, whose breaking and unclassified changes both count. A breaking change fails the
// gate, naming the route or the event, unless the service's package.json version is a new major
// against the release's AND services/<name>/CHANGELOG.md has a `## <version>` section with a
// `### Compatibility` heading saying how callers and consumers of the previous major keep working.
//
//   npx tsx tools/contracts/gate.ts                       # every service
//   npx tsx tools/contracts/gate.ts --project @shop/orders  # one (a front-end: nothing to compare)
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diff } from '@asyncapi/diff';
import { Parser } from '@asyncapi/parser';
import { parse as parseYaml } from 'yaml';
import { toolPaths } from '@shop/infra/paths';

export const repoRoot = join(import.meta.dirname, '..', '..');
export const SERVICES = ['products', 'orders', 'users', 'wallet', 'data', 'media'] as const;
export type ServiceName = (typeof SERVICES)[number];

/** One side of the comparison: the documents' text and the service's version. */
export interface ContractSide {
  version: string;
  openapi: string;
  asyncapi: string;
}

export interface GateResult {
  service: string;
  /** Each breaking change, naming the route or event: `GET /api/orders/mine: api path removed ...`. */
  breaking: string[];
  /** oasdiff's warnings: shown, never failing. */
  warnings: string[];
  /** Whether the gate lets the change through, and why (or why not). */
  pass: boolean;
  reason: string;
}

interface OasdiffChange {
  id: string;
  text: string;
  level: number;
  operation?: string;
  path?: string;
  section?: string;
}

const major = (version: string) => Number(/^(\d+)\./.exec(version)?.[1] ?? Number.NaN);

/** oasdiff breaking on two OpenAPI texts: its changes, errors (level 3) and warnings (level 2). */
export function openApiChanges(base: string, revision: string): { breaking: string[]; warnings: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'contract-gate-'));
  try {
    writeFileSync(join(dir, 'base.json'), base);
    writeFileSync(join(dir, 'revision.json'), revision);
    const { oasdiff } = toolPaths();
    if (!existsSync(oasdiff))
      throw new Error(`oasdiff is not installed at ${oasdiff}: run node libs/infra/ensure-tools.mjs`);
    const result = spawnSync(oasdiff, ['breaking', 'base.json', 'revision.json', '--format', 'json'], {
      cwd: dir,
      encoding: 'utf8',
    });
    if (result.status !== 0) throw new Error(`oasdiff failed (exit ${result.status}): ${result.stderr}`);
    const changes = JSON.parse(result.stdout || '[]') as OasdiffChange[];
    const describe = (change: OasdiffChange) =>
      `${change.operation && change.path ? `${change.operation} ${change.path}` : (change.section ?? 'document')}: ${change.text} (${change.id})`;
    return {
      breaking: changes.filter((change) => change.level >= 3).map(describe),
      warnings: changes.filter((change) => change.level === 2).map(describe),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The document's channels' addresses by id, for naming what a change touches. */
function channelAddresses(document: Record<string, unknown>): Map<string, string> {
  const channels = (document['channels'] ?? {}) as Record<string, { address?: string | null }>;
  return new Map(Object.entries(channels).map(([id, channel]) => [id, channel.address ?? `${id} (inbox)`]));
}

let parser: Parser | undefined;

async function parsedAsyncApi(text: string, which: string): Promise<Record<string, unknown>> {
  // One parser for the process: building one (its rule set) costs as much as a parse.
  parser ??= new Parser();
  const { document, diagnostics } = await parser.parse(text);
  if (!document) {
    const errors = diagnostics.filter((diagnostic) => diagnostic.severity === 0);
    throw new Error(`${which} AsyncAPI document is not valid: ${errors.map((e) => e.message).join('; ')}`);
  }
  return withoutParserKeys(document.json()) as Record<string, unknown>;
}

/**
 * A copy of a parsed document without the parser's `x-parser-*` annotations, which the written
 * document never holds. `x-parser-schema-id` numbers unnamed schemas by position
 * (`<anonymous-schema-12>`) and the generator sorts keys, so a new event whose name sorts before
 * the others renumbered every later schema, and the diff reported each as a breaking edit.
 * References the parser shares (a message in components, its channel and operations) stay shared.
 */
function withoutParserKeys(value: unknown, copies = new Map<object, unknown>()): unknown {
  if (value === null || typeof value !== 'object') return value;
  const known = copies.get(value);
  if (known !== undefined) return known;
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    copies.set(value, copy);
    for (const item of value) copy.push(withoutParserKeys(item, copies));
    return copy;
  }
  const copy: Record<string, unknown> = {};
  copies.set(value, copy);
  for (const [key, item] of Object.entries(value))
    if (!key.startsWith('x-parser-')) copy[key] = withoutParserKeys(item, copies);
  return copy;
}

// What a release may change freely: the document's own title, version and description.
const ASYNCAPI_OVERRIDES = {
  '/info/version': { add: 'non-breaking', remove: 'non-breaking', edit: 'non-breaking' },
  '/info/description': { add: 'non-breaking', remove: 'non-breaking', edit: 'non-breaking' },
  // A message the channels name: adding one is a new message (its channel's addition is classified);
  // changing or removing one changes what its channels carry.
  '/components': { add: 'non-breaking', remove: 'breaking', edit: 'breaking' },
  '/components/messages': { add: 'non-breaking', remove: 'breaking', edit: 'breaking' },
  '/components/messages/*': { add: 'non-breaking', remove: 'breaking', edit: 'breaking' },
} as const;

/** Which channels' addresses name each message of components, in the document as written (not dereferenced). */
function messageChannels(text: string): Map<string, string[]> {
  const document = parseYaml(text) as {
    channels?: Record<string, { address?: string | null; messages?: Record<string, { $ref?: string }> }>;
  };
  const channels = new Map<string, string[]>();
  for (const [id, channel] of Object.entries(document.channels ?? {})) {
    for (const message of Object.values(channel.messages ?? {})) {
      const ref = message.$ref?.replace('#/components/messages/', '');
      if (ref) channels.set(ref, [...(channels.get(ref) ?? []), channel.address ?? `${id} (inbox)`]);
    }
  }
  return channels;
}

/** @asyncapi/diff on two AsyncAPI texts: breaking and unclassified changes, each naming its channel. */
export async function asyncApiChanges(base: string, revision: string): Promise<string[]> {
  const before = await parsedAsyncApi(base, 'the previous release');
  const after = await parsedAsyncApi(revision, 'the current');
  const output = diff(before, after, { override: ASYNCAPI_OVERRIDES as never, outputType: 'json' });
  const addresses = new Map([...channelAddresses(before), ...channelAddresses(after)]);
  const operations = {
    ...((before['operations'] ?? {}) as Record<string, unknown>),
    ...((after['operations'] ?? {}) as Record<string, unknown>),
  };
  const messages = new Map([...messageChannels(base), ...messageChannels(revision)]);
  const name = (path: string) => {
    const [, section, id, messageId] = path.split('/');
    if (section === 'components' && id === 'messages' && messageId)
      return `channel ${(messages.get(messageId) ?? [messageId]).join(', ')}`;
    if (section === 'channels' && id) return `channel ${addresses.get(id) ?? id}`;
    if (section === 'operations' && id) {
      const operation = operations[id] as { channel?: { address?: string | null } } | undefined;
      return `operation ${id}${operation?.channel?.address ? ` on ${operation.channel.address}` : ''}`;
    }
    return section ?? 'document';
  };
  const changes = [...(output.breaking() as DiffItem[]), ...(output.unclassified() as DiffItem[])];
  // The parsed documents repeat a message wherever it is referenced (components, its channel, each
  // operation): one line per subject, kind of change and place inside the message.
  const lines = new Map<string, string>();
  for (const change of changes) {
    const label = name(change.path);
    const subject = /(?:^channel| on) (.+)$/.exec(label)?.[1] ?? label;
    const inMessage = /\/(payload|headers)(\/.*)?$/.exec(change.path)?.[0];
    const key = `${subject} ${change.action} ${inMessage ?? change.path}`;
    if (!lines.has(key)) lines.set(key, `${label}: ${change.action} ${change.path}`);
  }
  return [...lines.values()];
}

interface DiffItem {
  action: string;
  path: string;
}

/** Whether services/<name>/CHANGELOG.md says how the previous major stays compatible, for `version`. */
export function compatibilityNoted(changelog: string | undefined, version: string): boolean {
  if (!changelog) return false;
  const sections = changelog.split(/^## /m).slice(1);
  const section = sections.find(
    (text) =>
      text
        .split('\n')[0]!
        .trim()
        .replace(/^\[|\].*$/g, '') === version,
  );
  return section !== undefined && /^### Compatibility\s*$/m.test(section);
}

/** The gate for one service: compares `base` (the previous release) with `current`. */
export async function gateService(
  service: string,
  base: ContractSide,
  current: ContractSide,
  changelog?: string,
): Promise<GateResult> {
  const openapi = openApiChanges(base.openapi, current.openapi);
  const events = await asyncApiChanges(base.asyncapi, current.asyncapi);
  const breaking = [
    ...openapi.breaking.map((line) => `OpenAPI ${line}`),
    ...events.map((line) => `AsyncAPI ${line}`),
  ];
  const result = { service, breaking, warnings: openapi.warnings };
  if (breaking.length === 0) return { ...result, pass: true, reason: 'no breaking change' };
  if (!(major(current.version) > major(base.version)))
    return {
      ...result,
      pass: false,
      reason: `breaking changes need a new major version: ${current.version} is not a new major against the release's ${base.version}`,
    };
  if (!compatibilityNoted(changelog, current.version))
    return {
      ...result,
      pass: false,
      reason: `services/${service}/CHANGELOG.md has no "## ${current.version}" section with a "### Compatibility" heading (how callers of ${base.version} keep working)`,
    };
  return { ...result, pass: true, reason: `new major ${current.version} with its compatibility note` };
}

export interface ServiceRelease {
  version: string;
  commit: string;
}

/** releases.json's `services` section. */
export function serviceReleases(root = repoRoot): Record<string, ServiceRelease> {
  const releases = JSON.parse(readFileSync(join(root, 'releases.json'), 'utf8')) as {
    services?: Record<string, ServiceRelease>;
  };
  if (!releases.services) throw new Error('releases.json has no "services" section');
  return releases.services;
}

function gitShow(root: string, commit: string, path: string): string {
  try {
    return execFileSync('git', ['show', `${commit}:${path}`], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? '';
    throw new Error(
      `cannot read ${path} at ${commit} (a shallow clone needs its history: git fetch --unshallow): ${stderr.trim()}`,
    );
  }
}

/** The gate for one service of the repository at `root`: the release from git, the rest from the files. */
export async function gateRepoService(service: ServiceName, root = repoRoot): Promise<GateResult> {
  const release = serviceReleases(root)[service];
  if (!release) throw new Error(`releases.json names no previous release of ${service}`);
  const dir = `services/${service}`;
  const read = (file: string) => readFileSync(join(root, dir, file), 'utf8');
  const base: ContractSide = {
    version: release.version,
    openapi: gitShow(root, release.commit, `${dir}/openapi.json`),
    asyncapi: gitShow(root, release.commit, `${dir}/asyncapi.yaml`),
  };
  const current: ContractSide = {
    version: (JSON.parse(read('package.json')) as { version: string }).version,
    openapi: read('openapi.json'),
    asyncapi: read('asyncapi.yaml'),
  };
  const changelogPath = join(root, dir, 'CHANGELOG.md');
  const changelog = existsSync(changelogPath) ? readFileSync(changelogPath, 'utf8') : undefined;
  return gateService(service, base, current, changelog);
}

export function formatResult(result: GateResult): string {
  const lines = [`${result.pass ? 'ok' : 'FAIL'} ${result.service}: ${result.reason}`];
  for (const change of result.breaking) lines.push(`  breaking: ${change}`);
  for (const warning of result.warnings) lines.push(`  warning: ${warning}`);
  return lines.join('\n');
}

async function main(args: string[]): Promise<number> {
  const projectAt = args.indexOf('--project');
  const project = projectAt >= 0 ? args[projectAt + 1] : undefined;
  const services = project ? SERVICES.filter((service) => `@shop/${service}` === project) : [...SERVICES];
  if (project && services.length === 0) {
    console.log(`contract gate: ${project} is not a service, it has no API documents to compare`);
    return 0;
  }
  let failed = 0;
  for (const service of services) {
    const result = await gateRepoService(service);
    console.log(formatResult(result));
    if (!result.pass) failed += 1;
  }
  return failed === 0 ? 0 : 1;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`contract gate: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(2);
    },
  );
}
