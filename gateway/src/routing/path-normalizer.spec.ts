import { describe, expect, it } from 'vitest';
import { escapePath, normalizePath, splitRequestTarget } from './path-normalizer';

describe('normalizePath', () => {
  it('leaves an already normal path alone', () => {
    expect(normalizePath('/')).toBe('/');
    expect(normalizePath('/api/products/1')).toBe('/api/products/1');
    expect(normalizePath('/remotes/catalog/')).toBe('/remotes/catalog/');
  });

  it('removes dot segments so traversal cannot pick another route', () => {
    expect(normalizePath('/api/users/x/../signin')).toBe('/api/users/signin');
    expect(normalizePath('/api/./users/./signin')).toBe('/api/users/signin');
    expect(normalizePath('/a/b/../../..')).toBe('/');
    expect(normalizePath('/a/.')).toBe('/a/');
    expect(normalizePath('/a/b/..')).toBe('/a/');
  });

  it('merges repeated slashes', () => {
    expect(normalizePath('//api///users//signin')).toBe('/api/users/signin');
  });

  it('decodes unreserved and other characters but keeps reserved ones encoded', () => {
    expect(normalizePath('/api/users/sign%69n')).toBe('/api/users/signin');
    expect(normalizePath('/api/users/%2e%2e/users/signin')).toBe('/api/users/signin');
    expect(normalizePath('/a%2Fb%3f')).toBe('/a%2Fb%3F');
    expect(normalizePath('/a%20b')).toBe('/a b');
  });
});

describe('escapePath', () => {
  it('escapes what is not safe on a request line and keeps reserved encodings', () => {
    expect(escapePath('/a b')).toBe('/a%20b');
    expect(escapePath('/a%2Fb')).toBe('/a%2Fb');
    expect(escapePath('/caf\u00c3\u00a9')).toBe('/caf%C3%A9');
    expect(escapePath('/a\\b')).toBe('/a%5Cb');
  });

  it('round-trips UTF-8 through normalisation', () => {
    expect(escapePath(normalizePath('/caf%C3%A9'))).toBe('/caf%C3%A9');
  });
});

describe('splitRequestTarget', () => {
  it('splits origin-form and absolute-form targets into path and query', () => {
    expect(splitRequestTarget('/a?b=1&c')).toEqual({ path: '/a', query: 'b=1&c' });
    expect(splitRequestTarget('/a?')).toEqual({ path: '/a', query: '' });
    expect(splitRequestTarget('/a')).toEqual({ path: '/a', query: null });
    expect(splitRequestTarget('http://example.com/x?y')).toEqual({ path: '/x', query: 'y' });
    expect(splitRequestTarget('http://example.com')).toEqual({ path: '/', query: null });
  });

  it('refuses targets that are not paths', () => {
    expect(splitRequestTarget('*')).toBeNull();
  });
});
