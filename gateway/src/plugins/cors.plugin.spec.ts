import { describe, expect, it } from 'vitest';
import { corsConfigSchema, CorsPlugin } from './cors.plugin';
import type { ResponseHeaders } from './response-headers';

const plugin = (config: Record<string, unknown>): CorsPlugin =>
  new CorsPlugin(corsConfigSchema.parse(config));

describe('CorsPlugin', () => {
  const site = plugin({
    origins: ['http://localhost:8000', 'http://127.0.0.1:8000'],
    methods: ['GET', 'POST'],
    headers: ['Authorization', 'Content-Type'],
    exposed_headers: ['X-Total-Count'],
    max_age: 600,
  });

  it('recognises a preflight by method, Origin and Access-Control-Request-Method', () => {
    expect(site.isPreflight('OPTIONS', { origin: 'http://x', 'access-control-request-method': 'POST' })).toBe(
      true,
    );
    expect(site.isPreflight('OPTIONS', { origin: 'http://x' })).toBe(false);
    expect(site.isPreflight('GET', { origin: 'http://x', 'access-control-request-method': 'POST' })).toBe(
      false,
    );
  });

  it('answers a preflight from an allowed origin with the configured lists', () => {
    expect(
      site.preflightHeaders({ origin: 'http://localhost:8000', 'access-control-request-method': 'POST' }),
    ).toEqual({
      'access-control-allow-origin': 'http://localhost:8000',
      'access-control-allow-methods': 'GET,POST',
      'access-control-allow-headers': 'Authorization,Content-Type',
      'access-control-max-age': '600',
      vary: 'Origin',
    });
  });

  it('gives no Allow-Origin to an unknown origin but still varies on Origin', () => {
    const headers: ResponseHeaders = { vary: 'Accept-Encoding', 'access-control-allow-origin': '*' };
    site.headerFilter({ origin: 'https://evil.example' }, headers);
    expect(headers['access-control-allow-origin']).toBeUndefined();
    expect(headers.vary).toBe('Accept-Encoding, Origin');
  });

  it('decorates responses for an allowed origin, normalising default ports', () => {
    const headers: ResponseHeaders = {};
    plugin({ origins: ['http://a.example', 'http://b.example'] }).headerFilter(
      { origin: 'http://b.example:80' },
      headers,
    );
    expect(headers['access-control-allow-origin']).toBe('http://b.example');
  });

  it('allows every origin with * and reflects the origin when credentials are on', () => {
    const open: ResponseHeaders = {};
    plugin({}).headerFilter({ origin: 'http://x.example' }, open);
    expect(open['access-control-allow-origin']).toBe('*');
    const credentialed: ResponseHeaders = {};
    plugin({ origins: ['*'], credentials: true }).headerFilter({ origin: 'http://x.example' }, credentialed);
    expect(credentialed['access-control-allow-origin']).toBe('http://x.example');
    expect(credentialed['access-control-allow-credentials']).toBe('true');
  });

  it('echoes requested headers when none are configured', () => {
    const headers = plugin({}).preflightHeaders({
      origin: 'http://x',
      'access-control-request-method': 'PUT',
      'access-control-request-headers': 'x-custom',
    });
    expect(headers['access-control-allow-headers']).toBe('x-custom');
    expect(headers['access-control-allow-methods']).toBe(
      'GET,HEAD,PUT,PATCH,POST,DELETE,OPTIONS,TRACE,CONNECT',
    );
  });
});
