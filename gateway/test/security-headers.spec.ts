import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from './support/gateway.fixture';
import { startKongYmlGateway } from './support/kong-yml-gateway';
import { rawRequest } from './support/raw-request';
import { startUpstream } from './support/upstream.server';

const PAGE_POLICY = "default-src 'none'; script-src 'self' 'sha256-abc'";

/** What every answer of the shop carries, whoever produced it (docs/security.md). */
const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-site',
  'strict-transport-security': 'max-age=31536000',
};

describe('security headers of gateway/kong.yml', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    // The shell's server sends its page's own policy, as libs/static-server/src/serve-static.mjs and the nginx image do.
    const shell = await startUpstream('shell', (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html', 'Content-Security-Policy': PAGE_POLICY });
      res.end('<!doctype html>');
    });
    // Every other service of the file answers as a plain upstream.
    gateway = await startKongYmlGateway([shell]);
  });

  afterAll(() => gateway?.close());

  it('puts them on API answers, with a policy that lets the answer run nothing and be framed nowhere', async () => {
    const res = await rawRequest(gateway.url, '/api/products');
    expect(res.headers).toMatchObject(SECURITY_HEADERS);
    expect(res.headers['content-security-policy']).toBe(
      "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    );
    expect(String(res.headers['permissions-policy'])).toContain('camera=()');
  });

  it("keeps the page's own policy", async () => {
    const res = await rawRequest(gateway.url, '/order/42');
    expect(res.headers).toMatchObject(SECURITY_HEADERS);
    expect(res.headers['content-security-policy']).toBe(PAGE_POLICY);
  });

  it("puts them on the gateway's own answers", async () => {
    const res = await rawRequest(gateway.url, '/api/products', {
      method: 'POST',
      headers: { 'content-length': String(2 * 2 ** 20) },
    });
    expect(res.status).toBe(413);
    expect(res.headers).toMatchObject(SECURITY_HEADERS);
    expect(res.headers['content-security-policy']).toMatch(/^default-src 'none'/);
  });
});
