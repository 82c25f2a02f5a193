import { describe, expect, it } from 'vitest';
import { upstreamUri } from './upstream-uri';

const uri = (
  servicePath: string | null,
  stripPath: boolean,
  matchedPath: string | null,
  requestPath: string,
): string => upstreamUri({ servicePath, stripPath, matchedPath, requestPath });

describe('upstreamUri (Kong path_handling v0)', () => {
  it('forwards the whole path when strip_path is false', () => {
    expect(uri(null, false, '/api/products', '/api/products/1')).toBe('/api/products/1');
    expect(uri(null, false, '/', '/')).toBe('/');
    expect(uri('/s', false, '/api', '/api/x')).toBe('/s/api/x');
    expect(uri('/s/', false, '/api', '/api/x')).toBe('/s/api/x');
    expect(uri('/s', false, '/', '/')).toBe('/s');
  });

  it('removes the matched prefix when strip_path is true', () => {
    expect(uri(null, true, '/remotes/catalog', '/remotes/catalog/mf-manifest.json')).toBe(
      '/mf-manifest.json',
    );
    expect(uri(null, true, '/remotes/catalog', '/remotes/catalog/')).toBe('/');
    expect(uri(null, true, '/remotes/catalog', '/remotes/catalog')).toBe('/');
    expect(uri(null, true, '/remotes/catalog', '/remotes/catalogue')).toBe('/ue');
  });

  it('joins the rest onto a service path', () => {
    expect(uri('/s', true, '/fv0', '/fv0req')).toBe('/s/req');
    expect(uri('/s', true, '/fv0', '/fv0/req')).toBe('/s/req');
    expect(uri('/s', true, '/fv0', '/fv0')).toBe('/s');
    expect(uri('/s', true, '/fv0', '/fv0/')).toBe('/s/');
    expect(uri('/s/', true, '/fv0', '/fv0')).toBe('/s');
    expect(uri('/s/', true, '/fv0', '/fv0/')).toBe('/s/');
    expect(uri('/s/', true, '/fv0', '/fv0/req')).toBe('/s/req');
    expect(uri('/s/', true, '/fv0', '/fv0req')).toBe('/s/req');
  });

  it('never climbs above the service path through a dotted remainder', () => {
    expect(uri('/s', true, '/p', '/p../x')).toBe('/s/x');
  });
});
