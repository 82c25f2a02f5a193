// What each service (and the catalog remote's render service) does on NATS, read from its source: the events it publishes (newEvent) and
// consumes (a durable consumer's types, or a subscription to eventSubject(...)), the commands it
// answers (@MessagePattern) and sends (requestReply), and the plain NATS subjects it publishes and
// subscribes to. The AsyncAPI documents are written from this (asyncapi.ts), and their test fails
// when the code and a document disagree, or when a NATS call names something this cannot resolve.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as contracts from '@shop/contracts';

export const repoRoot = join(import.meta.dirname, '..', '..');

export const SERVICES = ['products', 'orders', 'users', 'wallet', 'data', 'media'] as const;
export type ServiceName = (typeof SERVICES)[number];

/** The catalog remote's render service (docs/rendering.md), which follows the catalogue's changes. */
export const RENDER_SERVICE = 'catalog-render';

/** Everything that speaks NATS, each with an AsyncAPI document: the domain services and the render service. */
export const NATS_PARTS = [...SERVICES, RENDER_SERVICE] as const;
export type NatsPart = (typeof NATS_PARTS)[number];

/**
 * Where a part lives: its folder (package.json and asyncapi.yaml, from the repository's root), its source,
 * and what its document calls it.
 */
export function partPlace(part: NatsPart): { dir: string; source: string; title: string } {
  return part === RENDER_SERVICE
    ? { dir: 'mf-catalog', source: 'mf-catalog/src/server', title: "catalog remote's render service" }
    : { dir: `services/${part}`, source: `services/${part}/src`, title: `${part} service` };
}

export type Role = 'publishes' | 'consumes' | 'answers' | 'requests' | 'sends' | 'receives';

export interface NatsUse {
  service: NatsPart;
  role: Role;
  /** An event type, a command pattern, or a plain subject (for `sends` and `receives`). */
  name: string;
  /** Where the code does it: `path:line`, relative to the repository. */
  at: string;
}

/** A call this scan recognises but whose subject it could not resolve to a constant. */
export interface UnresolvedUse {
  at: string;
  code: string;
}

interface Pattern {
  role: Role;
  regex: RegExp;
  /** The constant a helper's call always uses (the helper names no subject where it is called). */
  subject?: string;
}

// Each captures the identifier(s) naming the subject. Generic plumbing in libs/service-kit (which
// publishes whatever event it is handed) passes variables and is not matched: `\b[A-Z]` below.
const PATTERNS: Pattern[] = [
  { role: 'publishes', regex: /\bnewEvent\(\s*([\w.]+)/g },
  // The kit's builder of an admin's `admin.action` (events/admin-action.ts), called by each service.
  { role: 'publishes', regex: /\badminActionEvent\(/g, subject: 'ADMIN_ACTION' },
  { role: 'answers', regex: /@MessagePattern\(\s*([\w.]+)/g },
  { role: 'answers', regex: /@EventPattern\(\s*([\w.]+)/g },
  { role: 'requests', regex: /\brequestReply(?:<[^>]*>)?\(\s*[\w.]+\s*,\s*([\w.]+)/g },
  { role: 'consumes', regex: /\.consume\(\s*[\w.'"]+\s*,\s*\[([^\]]*)\]/g },
  { role: 'consumes', regex: /\beventSubject\(\s*([\w.]+)\s*\)/g },
  { role: 'sends', regex: /\.publish\(\s*([A-Z][A-Z0-9_]*)\b/g },
  { role: 'receives', regex: /\.subscribe\(\s*([A-Z][A-Z0-9_]*)\b/g },
];

/**
 * Lines of libs/service-kit that are not a use of a subject: plumbing that handles any subject it is
 * given, and the admin-action builder, whose callers (the services) are the ones counted.
 */
const GENERIC = [
  /const subject = eventSubject\(event\.type\)/,
  /export function adminActionEvent\(/,
  /return newEvent\(ADMIN_ACTION, data\)/,
];

/** The string constants @shop/contracts exports, by name. */
function contractConstants(): Map<string, string> {
  const constants = new Map<string, string>();
  for (const [name, value] of Object.entries(contracts)) {
    if (typeof value === 'string' && /^[A-Z][A-Z0-9_]*$/.test(name)) constants.set(name, value);
  }
  return constants;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.spec.ts') && !file.endsWith('.d.ts'))
    .map((file) => join(dir, file));
}

/** `export const NAME = 'value'` in the files given: a service's own subject constants. */
function localConstants(files: string[]): Map<string, string> {
  const constants = new Map<string, string>();
  for (const file of files) {
    for (const match of readFileSync(file, 'utf8').matchAll(/\bconst ([A-Z][A-Z0-9_]*) = '([^']+)'/g)) {
      constants.set(match[1]!, match[2]!);
    }
  }
  return constants;
}

function lineOf(source: string, index: number): number {
  return source.slice(0, index).split('\n').length;
}

function scan(
  root: string,
  files: string[],
  constants: Map<string, string>,
  found: (role: Role, name: string, at: string) => void,
  unresolved: UnresolvedUse[],
): void {
  for (const file of files) {
    const source = readFileSync(file, 'utf8');
    for (const { role, regex, subject } of PATTERNS) {
      for (const match of source.matchAll(regex)) {
        const at = `${relative(root, file)}:${lineOf(source, match.index)}`;
        const line = source.split('\n')[lineOf(source, match.index) - 1] ?? '';
        if (GENERIC.some((generic) => generic.test(line))) continue;
        const names = (subject ?? match[1]!)
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean);
        for (const name of names) {
          const value = constants.get(name) ?? /^'([^']+)'$/.exec(name)?.[1];
          if (value === undefined) unresolved.push({ at, code: match[0] });
          else found(role, value, at);
        }
      }
    }
  }
}

/**
 * Every NATS use of every part. What libs/service-kit does itself (token revocations, in auth/)
 * counts for each service that imports its AuthModule; a use anywhere else in the kit is reported as
 * unresolved, since the scan cannot tell which services run it.
 */
export function scanNatsUse(root = repoRoot): { uses: NatsUse[]; unresolved: UnresolvedUse[] } {
  const shared = contractConstants();
  const uses: NatsUse[] = [];
  const unresolved: UnresolvedUse[] = [];
  const kitDir = join(root, 'libs', 'service-kit', 'src');
  const kitFiles = sourceFiles(kitDir);
  const kitUses: Omit<NatsUse, 'service'>[] = [];
  scan(
    root,
    kitFiles,
    shared,
    (role, name, at) => {
      if (at.startsWith('libs/service-kit/src/auth/')) kitUses.push({ role, name, at });
      else unresolved.push({ at, code: `${role} ${name} (outside auth/: which services run it?)` });
    },
    unresolved,
  );
  for (const service of NATS_PARTS) {
    const files = sourceFiles(join(root, partPlace(service).source));
    const constants = new Map([...shared, ...localConstants(files)]);
    scan(root, files, constants, (role, name, at) => uses.push({ service, role, name, at }), unresolved);
    const usesAuth = files.some((file) => /\bAuthModule\b/.test(readFileSync(file, 'utf8')));
    if (usesAuth) uses.push(...kitUses.map((use) => ({ ...use, service })));
  }
  return { uses, unresolved };
}
