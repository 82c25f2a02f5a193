// Schemathesis (PyPI) against one service's OpenAPI document, through the gateway of a running shop,
// as one user (docs/contracts.md). e2e/tests/fuzz.spec.ts runs it for every service
// with a shopper's and an admin's token. Bounded by examples, not by time: a few examples per operation
// and phase, a timeout per request (a request that hangs fails), and a fixed seed, so a run is
// repeatable and always reaches every operation, however slow the machine.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { repoRoot as findRepoRoot, toolPaths } from '@shop/infra/paths';

const repoRoot = findRepoRoot();

/**
 * What every answer is checked for: Schemathesis's `--checks all` (no 5xx; status code, content type,
 * headers and body as the document gives them for the operation; authentication not ignored; a
 * deleted resource gone, a created one there) except the three `FUZZ_EXCLUDED_CHECKS`.
 */
export const FUZZ_CHECKS = 'all';

/**
 * Checks left out, each for what it finds today (docs/contracts.md lists the findings):
 * - positive_data_acceptance: the documents do not give every rule the services apply (an id is any
 *   string in them, a product image any URL), so schema-valid data is refused with a 400;
 * - negative_data_rejection: the services accept some data the documents forbid (null for an
 *   optional number);
 * - unsupported_method: a method no route has (QUERY, without a Content-Type) gets Fastify's 400,
 *   not a 405.
 */
export const FUZZ_EXCLUDED_CHECKS = [
  'positive_data_acceptance',
  'negative_data_rejection',
  'unsupported_method',
];

export interface FuzzOptions {
  service: string;
  /** The OpenAPI document to test by (default: services/<service>/openapi.json). */
  document?: string;
  /** The gateway: the documents' paths are the gateway's. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <token>` with every request. */
  token: string;
  /**
   * Test cases per operation and phase at most (the coverage phase's boundary cases are not counted
   * against it). The run ends when every operation had its cases. There is no time budget on purpose:
   * one cut the run short on a busy machine, leaving operations with no case at all.
   */
  maxExamples?: number;
  /** A request without an answer by then fails the run. */
  requestTimeoutSeconds?: number;
  seed?: number;
}

export interface FuzzResult {
  service: string;
  exitCode: number | null;
  /** Test cases Schemathesis generated and sent. */
  cases: number;
  /** Every operation of the document, with the cases sent to it (the stateful phase's not counted). */
  operations: OperationCases[];
  /**
   * Operations whose answers were 401 or 403 and never accepted a valid case: Schemathesis's
   * "Authentication failed" warning (`missing_auth` of its JSON report).
   */
  refusedOnly: string[];
  /** One line per failure Schemathesis found: the operation and the check. */
  failures: string[];
  /** Schemathesis's own output, for the log when it fails. */
  output: string;
  seconds: number;
}

/** One operation of the document and what a run sent it. */
export interface OperationCases {
  /** As Schemathesis names it: `GET /api/orders/{id}`. */
  operation: string;
  /** Marked `x-admin-only` in the document (`@AdminOnly()`): a shopper is refused. */
  adminOnly: boolean;
  cases: number;
}

interface NdjsonEvent {
  [kind: string]: unknown;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The document's operations as Schemathesis labels them, and which are for admins only. */
export function documentOperations(document: string): { operation: string; adminOnly: boolean }[] {
  const { paths = {} } = JSON.parse(document) as { paths?: Record<string, Record<string, unknown>> };
  return Object.entries(paths).flatMap(([path, item]) =>
    HTTP_METHODS.filter((method) => item[method]).map((method) => ({
      operation: `${method.toUpperCase()} ${path}`,
      adminOnly: (item[method] as Record<string, unknown>)['x-admin-only'] === true,
    })),
  );
}

/** Runs Schemathesis once; resolves when it ends (it ends by itself: its run is bounded). */
export async function fuzzService(options: FuzzOptions): Promise<FuzzResult> {
  const { schemathesis } = toolPaths();
  if (!existsSync(schemathesis))
    throw new Error(
      `Schemathesis is not installed at ${schemathesis}: run node libs/infra/ensure-tools.mjs --browser`,
    );
  const document = resolve(options.document ?? join(repoRoot, 'services', options.service, 'openapi.json'));
  const reportDir = mkdtempSync(join(tmpdir(), `fuzz-${options.service}-`));
  const ndjson = join(reportDir, 'events.ndjson');
  const runReport = join(reportDir, 'run.json');
  const args = [
    'run',
    document,
    '--url',
    options.baseUrl,
    '--header',
    `Authorization: Bearer ${options.token}`,
    '--checks',
    FUZZ_CHECKS,
    '--exclude-checks',
    FUZZ_EXCLUDED_CHECKS.join(','),
    '--max-examples',
    String(options.maxExamples ?? 3),
    '--request-timeout',
    String(options.requestTimeoutSeconds ?? 10),
    '--seed',
    String(options.seed ?? 25),
    // One worker: Hypothesis describing strategies in two threads at once trips CPython 3.11's
    // "AST constructor recursion depth mismatch" (a SystemError that ends the run).
    '--workers',
    '1',
    '--no-shrink',
    // No example database: a run replays nothing an earlier one found, so each run is the same for its
    // seed (the storage folder below, where Hypothesis would keep one, outlives the run).
    '--generation-database',
    'none',
    '--suppress-health-check',
    'all',
    // The event stream gives each scenario's cases and checks; the run report, the operations that
    // met only 401/403 (its warnings).
    '--report',
    'ndjson,json',
    '--report-ndjson-path',
    ndjson,
    '--report-json-path',
    runReport,
    '--output-truncate',
    'true',
  ];
  const started = Date.now();
  // Run in the report's folder: Schemathesis keeps a cache of what it found (.schemathesis/) in its
  // working directory, which must not land in the work tree; the folder goes with the report.
  const child = spawn(schemathesis, args, {
    cwd: reportDir,
    env: {
      ...process.env,
      NO_COLOR: '1',
      SCHEMATHESIS_HOOKS: '',
      HYPOTHESIS_STORAGE_DIRECTORY: hypothesisStorage(schemathesis),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exitCode = await new Promise<number | null>((resolve) => child.on('close', resolve));
  try {
    const { cases, failures, casesByOperation } = readReport(
      existsSync(ndjson) ? readFileSync(ndjson, 'utf8') : '',
    );
    const operations = documentOperations(readFileSync(document, 'utf8')).map((operation) => ({
      ...operation,
      cases: casesByOperation[operation.operation] ?? 0,
    }));
    return {
      service: options.service,
      exitCode,
      cases,
      operations,
      refusedOnly: existsSync(runReport) ? readRefusedOnly(readFileSync(runReport, 'utf8')) : [],
      failures,
      output,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
  }
}

/**
 * Where Hypothesis keeps what it computes once and reuses: the constants it collects from the source of
 * every module it takes for the project's own (with Schemathesis in a folder not named site-packages, as
 * ensure-tools installed it before: Schemathesis and its dependencies, 538 modules parsed), and the
 * character tables of the codecs it draws strings from. Left in each run's temporary folder, every run
 * computed them again on its first draws: up to ~20 s of CPU on a busy 2-core machine, which spent a
 * 6-10 s budget before a first case (orders: 0 cases; docs/contracts.md). Beside the installed tool,
 * outside the work tree, it is computed once per machine and version.
 */
function hypothesisStorage(schemathesis: string): string {
  return join(dirname(schemathesis), 'hypothesis-storage');
}

/**
 * Test cases and failures from Schemathesis's NDJSON event stream, and the cases of each operation
 * (by its label; the stateful phase's scenarios are labelled `Stateful tests`).
 */
export function readReport(text: string): {
  cases: number;
  failures: string[];
  casesByOperation: Record<string, number>;
} {
  let cases = 0;
  const casesByOperation: Record<string, number> = {};
  const failures = new Set<string>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const event = JSON.parse(line) as NdjsonEvent;
    const [kind, body] = Object.entries(event)[0] ?? [];
    if (kind !== 'ScenarioFinished') continue;
    const recorder = (body as { recorder?: Recorder }).recorder;
    if (!recorder) continue;
    const scenarioCases = Object.keys(recorder.cases ?? {}).length;
    cases += scenarioCases;
    casesByOperation[recorder.label] = (casesByOperation[recorder.label] ?? 0) + scenarioCases;
    for (const checks of Object.values(recorder.checks ?? {})) {
      for (const check of checks) {
        if (check.status === 'failure')
          failures.add(
            `${recorder.label}: ${check.name}${check.failure_info ? ` (${describeFailure(check.failure_info)})` : ''}`,
          );
      }
    }
  }
  return { cases, failures: [...failures].sort(), casesByOperation };
}

/** The operations Schemathesis's JSON run report says met only 401/403 (`warnings.missing_auth`). */
export function readRefusedOnly(text: string): string[] {
  const report = JSON.parse(text) as { warnings?: { missing_auth?: string[] } };
  return [...(report.warnings?.missing_auth ?? [])].sort();
}

/**
 * What a run as `who` left unfuzzed, one line each: an operation of the document that got no case,
 * and one that user may call (an admin any, a shopper all but `x-admin-only` ones) whose every case
 * was refused (401/403). Empty when the run covered the whole document.
 */
export function coverageGaps(result: FuzzResult, who: 'shopper' | 'admin'): string[] {
  const gaps: string[] = [];
  for (const { operation, adminOnly, cases } of result.operations) {
    if (cases === 0) gaps.push(`${operation}: no test case`);
    else if ((who === 'admin' || !adminOnly) && result.refusedOnly.includes(operation))
      gaps.push(
        `${operation}: every case refused (401/403) though a${who === 'admin' ? 'n' : ''} ${who} may call it`,
      );
  }
  if (result.operations.length === 0) gaps.push('the document has no operation');
  return gaps;
}

interface Recorder {
  label: string;
  cases?: Record<string, unknown>;
  checks?: Record<string, { name: string; status: string; failure_info?: unknown }[]>;
}

function describeFailure(info: unknown): string {
  const failure = (info as { failure?: { title?: string; message?: string } }).failure;
  return [failure?.title, failure?.message?.split('\n')[0]].filter(Boolean).join(': ');
}
