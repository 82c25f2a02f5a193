// The services' OpenAPI documents (services/<name>/openapi.json, each written from its code by
// `npm run openapi -w @shop/<name>`, each checked against it by that service's tests), put to use:
// linted with Redocly, typed for the front-ends, joined into the one API reference at /api/docs.
// docs/decisions/0015-api-reference.md says why the data service serves that reference.
//
//   npx tsx tools/contracts/openapi.ts types              # rewrite libs/contracts/src/generated/api.ts
//   npx tsx tools/contracts/openapi.ts reference <dir>    # <dir>/index.html and <dir>/headers.json
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify, stripVTControlCharacters } from 'node:util';
import openapiTS from 'openapi-typescript';
import * as prettier from 'prettier';
import { CSP_REPORT_PATH, REPORTING_ENDPOINTS, inlineScriptHashes } from '@shop/static-server/page-policy';

export const repoRoot = join(import.meta.dirname, '..', '..');

/** The services with an HTTP API, in the order the reference shows them. */
export const OPENAPI_SERVICES = ['products', 'orders', 'users', 'wallet', 'data', 'media'] as const;
export type OpenApiService = (typeof OPENAPI_SERVICES)[number];

export const documentPath = (service: OpenApiService): string =>
  join(repoRoot, 'services', service, 'openapi.json');

/**
 * The TypeScript types of the API the front-ends call: the six documents joined, as the gateway serves
 * them, so what they share (the error shape, the shared error answers) is typed once.
 */
export const GENERATED_TYPES_PATH = join(repoRoot, 'libs', 'contracts', 'src', 'generated', 'api.ts');

const REDOCLY = join(repoRoot, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
const REDOCLY_CONFIG = join(import.meta.dirname, 'redocly.yaml');

/** Runs the Redocly CLI; it sends no usage data and looks for no update. */
async function redocly(args: string[]): Promise<{ code: number; output: string }> {
  // Plain text whatever the terminal: Nx runs tasks with FORCE_COLOR, which colours even a pipe.
  // Without NODE_ENV: under `test` (vitest sets it) Redocly prints what `join -o` should write.
  const { NODE_ENV: _testing, ...inherited } = process.env;
  const env = {
    ...inherited,
    REDOCLY_TELEMETRY: 'off',
    REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
    NO_COLOR: '1',
    FORCE_COLOR: '0',
  };
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [REDOCLY, ...args], {
      cwd: repoRoot,
      env,
      maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, output: stripVTControlCharacters(stdout + stderr) };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: failed.code ?? 1,
      output: stripVTControlCharacters(`${failed.stdout ?? ''}${failed.stderr ?? ''}`),
    };
  }
}

/** `redocly lint` of documents with the project's rules (tools/contracts/redocly.yaml): any problem fails. */
export function lintDocuments(files: string[]): Promise<{ code: number; output: string }> {
  return redocly([
    'lint',
    '--config',
    REDOCLY_CONFIG,
    '--max-problems',
    '50',
    '--format',
    'stylish',
    ...files,
  ]);
}

/** The TypeScript types of the joined documents, as committed in libs/contracts/src/generated/api.ts. */
export async function generatedTypes(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-types-'));
  let document: Record<string, unknown>;
  try {
    const joined = join(dir, 'api.json');
    await joinDocuments(joined);
    document = JSON.parse(readFileSync(joined, 'utf8')) as Record<string, unknown>;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // openapi-typescript 6 takes the document as its 3.0 form: `type: [T, 'null']` is read as T | null.
  const types = await openapiTS(document as unknown as Parameters<typeof openapiTS>[0], {
    exportType: false,
  });
  const header = [
    `// Generated from services/{${OPENAPI_SERVICES.join(',')}}/openapi.json, joined (redocly join), by`,
    '// `npx tsx tools/contracts/openapi.ts types`. Do not edit: change a service, regenerate its',
    '// document, then these types.',
    // Its helper for `oneOf` takes any tuple.
    ...(/\bany\b/.test(types) ? ['/* eslint-disable @typescript-eslint/no-explicit-any */'] : []),
    '',
  ].join('\n');
  return prettier.format(header + types, {
    ...(await prettier.resolveConfig(GENERATED_TYPES_PATH)),
    filepath: GENERATED_TYPES_PATH,
  });
}

export async function writeTypes(): Promise<void> {
  writeFileSync(GENERATED_TYPES_PATH, await generatedTypes());
}

/** The six documents as one (`redocly join`), under the shop's own title. */
export async function joinDocuments(outFile: string): Promise<void> {
  const joined = await redocly(['join', ...OPENAPI_SERVICES.map(documentPath), '-o', outFile]);
  if (joined.code !== 0) throw new Error(`redocly join failed:\n${joined.output}`);
  const document = JSON.parse(readFileSync(outFile, 'utf8')) as Record<string, unknown>;
  document.info = {
    title: 'Shop API',
    version: '1.0.0',
    description:
      'Every route of the six services behind the gateway, one section per service. Each section is ' +
      'generated from its service’s code (`services/<name>/openapi.json`). Errors always answer ' +
      '`{ "message": "..." }`; signed-in routes take `Authorization: Bearer <token>` from `POST /api/users/signin`.',
    license: { name: 'MIT', identifier: 'MIT' },
  };
  writeFileSync(outFile, JSON.stringify(document, null, 2));
}

/**
 * The reference page's own Content-Security-Policy: its inline scripts by hash and no other script,
 * no connection, no frame, no form. Styles are inline as on the shop's page (docs/security.md):
 * Redoc's styled-components add <style> elements at run time, whose content no build can know.
 */
export function referencePolicy(html: string): string {
  return [
    "default-src 'none'",
    ['script-src', ...new Set(inlineScriptHashes(html))].join(' '),
    "style-src 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    `report-uri ${CSP_REPORT_PATH}`,
    'report-to csp',
  ].join('; ');
}

const REDOC_CDN_IMAGE = /https:\/\/cdn\.redoc\.ly\/[\w./-]+\.svg/g;
const EMPTY_IMAGE = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E";

/** Builds the API reference into `outDir`: index.html (Redoc, scripts inline) and the headers to serve it with. */
export async function buildReference(outDir: string): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'shop-api-reference-'));
  try {
    const joined = join(work, 'openapi.json');
    await joinDocuments(joined);
    mkdirSync(outDir, { recursive: true });
    const html = join(outDir, 'index.html');
    const built = await redocly([
      'build-docs',
      joined,
      '--inlineBundle',
      '--title',
      'Shop API reference',
      '-o',
      html,
    ]);
    if (built.code !== 0) throw new Error(`redocly build-docs failed:\n${built.output}`);
    // Redoc shows its makers' logo from their CDN: the page loads nothing from another site.
    writeFileSync(html, readFileSync(html, 'utf8').replaceAll(REDOC_CDN_IMAGE, EMPTY_IMAGE));
    const headers = {
      'content-security-policy': referencePolicy(readFileSync(html, 'utf8')),
      'reporting-endpoints': REPORTING_ENDPOINTS,
    };
    writeFileSync(join(outDir, 'headers.json'), `${JSON.stringify(headers, null, 2)}\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [command, outDir] = process.argv.slice(2);
  const run =
    command === 'types'
      ? writeTypes()
      : command === 'reference' && outDir
        ? buildReference(resolve(outDir))
        : Promise.reject(new Error('usage: openapi.ts types | reference <dir>'));
  run.then(
    () => console.log(command === 'types' ? 'wrote libs/contracts/src/generated' : `wrote ${outDir}`),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
