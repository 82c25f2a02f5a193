import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inlineScriptHashes, pagePolicy } from './page-policy.mjs';

const sha256 = (code) => `'sha256-${createHash('sha256').update(code).digest('base64')}'`;

describe('inlineScriptHashes', () => {
  it("hashes each inline script's exact text and skips scripts loaded from a file", () => {
    const start = '(()=>{fetch("/api/products")})();';
    const html =
      `<head><script>${start}</script><script defer src="/0.1.0/main.1234abcd.js"></script>` +
      `<script type="module">\nexport {};\n</script></head>`;
    expect(inlineScriptHashes(html)).toEqual([sha256(start), sha256('\nexport {};\n')]);
  });
});

describe('pagePolicy', () => {
  it('lets only the own origin and the listed inline scripts run, and nothing frame the page', () => {
    const policy = pagePolicy({ scriptHashes: ["'sha256-abc='"] });
    const directives = Object.fromEntries(
      policy.split('; ').map((directive) => [directive.split(' ')[0], directive.split(' ').slice(1)]),
    );
    expect(directives['default-src']).toEqual(["'none'"]);
    expect(directives['script-src']).toEqual(["'self'", "'sha256-abc='"]);
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
    expect(directives['object-src']).toEqual(["'none'"]);
    expect(directives['base-uri']).toEqual(["'none'"]);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(directives['form-action']).toEqual(["'self'"]);
    expect(directives['connect-src']).toEqual(["'self'"]);
    expect(directives['report-to']).toEqual(['csp']);
  });

  it('adds configured call targets to connect-src only', () => {
    const policy = pagePolicy({ scriptHashes: [], connectSources: ['https://otel.example.com'] });
    expect(policy).toContain("connect-src 'self' https://otel.example.com;");
    expect(policy).toContain("script-src 'self';");
  });
});
