import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  OPENAPI_SERVICES,
  documentPath,
  GENERATED_TYPES_PATH,
  generatedTypes,
  lintDocuments,
  referencePolicy,
} from './openapi.js';

describe("the services' OpenAPI documents", () => {
  it('pass Redocly lint with the project rules', async () => {
    const { code, output } = await lintDocuments(OPENAPI_SERVICES.map(documentPath));
    expect(code, output).toBe(0);
    expect(output).toMatch(/Your API descriptions? (is|are) valid/);
    expect(output, output).not.toMatch(/\bwarning\b/);
  });

  it('fail the lint when a document breaks OpenAPI 3.1', async () => {
    const document = JSON.parse(readFileSync(documentPath('wallet'), 'utf8')) as {
      paths: Record<string, Record<string, { parameters: unknown[] }>>;
    };
    // Swagger 2's body parameter: no such place in OpenAPI 3.
    document.paths['/api/wallet/all-wallets']!.get!.parameters.push({ name: 'wallet', in: 'body' });
    const file = join(mkdtempSync(join(tmpdir(), 'openapi-lint-')), 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    const { code, output } = await lintDocuments([file]);
    expect(code).not.toBe(0);
    expect(output).toMatch(/error\s+struct/);
  });

  it('libs/contracts/src/generated/api.ts is typed from the committed documents', async () => {
    expect(
      readFileSync(GENERATED_TYPES_PATH, 'utf8'),
      'run `npx tsx tools/contracts/openapi.ts types` and commit libs/contracts/src/generated',
    ).toBe(await generatedTypes());
  });
});

describe('the API reference page policy', () => {
  const page = [
    '<html><head><style>body{margin:0}</style><script>window.a=1</script>',
    '<script type="module">import("./x.js")</script></head>',
    '<body><div style="display:none"></div><script src="/x.js"></script></body></html>',
  ].join('');

  it('runs exactly its inline scripts, by hash, and loads nothing else', () => {
    const directives = Object.fromEntries(
      referencePolicy(page)
        .split('; ')
        .map((directive) => [directive.split(' ')[0], directive.split(' ').slice(1)]),
    );
    expect(directives['default-src']).toEqual(["'none'"]);
    expect(directives['script-src']).toEqual([
      "'sha256-WpNQcWxgTJamkluTtRGYllok20MyGquJpWh9YXWGA4E='",
      expect.stringMatching(/^'sha256-[A-Za-z0-9+/]+=*'$/),
    ]);
    expect(directives['style-src']).toEqual(["'unsafe-inline'"]);
    expect(directives['img-src']).toEqual(["'self'", 'data:']);
    expect(directives['connect-src']).toBeUndefined();
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(directives['form-action']).toEqual(["'none'"]);
    expect(directives['report-to']).toEqual(['csp']);
  });
});
