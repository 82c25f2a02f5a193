import { describe, expect, it } from 'vitest';
import { type MatchableRoute, RouteMatcher } from './route-matcher';

const route = (name: string, paths: string[] | null, methods: string[] | null = null): MatchableRoute => ({
  name,
  paths,
  methods,
});

function matched(matcher: RouteMatcher<MatchableRoute>, method: string, path: string): string | undefined {
  return matcher.match(method, path)?.route.name;
}

describe('RouteMatcher', () => {
  const matcher = new RouteMatcher([
    route('shell', ['/']),
    route('users', ['/api/users']),
    route('signin', ['/api/users/signin'], ['POST']),
    route('products-read', ['/api/products', '/api/listings'], ['GET', 'HEAD']),
    route('products', ['/api/products', '/api/listings']),
    route('catalog', ['/remotes/catalog']),
  ]);

  it('prefers the longest matching prefix among routes of the same weight', () => {
    expect(matched(matcher, 'GET', '/api/users/profile')).toBe('users');
    expect(matched(matcher, 'GET', '/remotes/catalog/remoteEntry.js')).toBe('catalog');
    expect(matched(matcher, 'GET', '/anything/else')).toBe('shell');
  });

  it('prefers a route with paths and methods over one with paths only', () => {
    expect(matched(matcher, 'POST', '/api/users/signin')).toBe('signin');
    expect(matched(matcher, 'GET', '/api/products/1')).toBe('products-read');
    expect(matched(matcher, 'GET', '/api/listings')).toBe('products-read');
  });

  it('falls through to a less specific route when the method does not match', () => {
    expect(matched(matcher, 'GET', '/api/users/signin')).toBe('users');
    expect(matched(matcher, 'POST', '/api/products/update/1')).toBe('products');
    expect(matched(matcher, 'delete', '/api/listings/1')).toBe('products');
  });

  it('matches prefixes as plain strings, like Kong', () => {
    expect(matched(matcher, 'GET', '/api/usersX')).toBe('users');
    expect(matched(matcher, 'POST', '/api/users/signin-extra')).toBe('signin');
  });

  it('ranks a methods-only route above a longer paths-only route', () => {
    // Kong weighs the kinds of condition before the prefix length.
    const weighted = new RouteMatcher([
      route('long', ['/api/orders/mine']),
      route('any-post', ['/'], ['POST']),
    ]);
    expect(matched(weighted, 'POST', '/api/orders/mine')).toBe('any-post');
    expect(matched(weighted, 'GET', '/api/orders/mine')).toBe('long');
  });

  it('keeps declaration order between equally specific routes', () => {
    const tied = new RouteMatcher([route('first', ['/a']), route('second', ['/a'])]);
    expect(matched(tied, 'GET', '/a')).toBe('first');
  });

  it('returns the matched prefix and nothing when no route applies', () => {
    expect(matcher.match('GET', '/api/listings/3')?.matchedPath).toBe('/api/listings');
    const onlyApi = new RouteMatcher([route('api', ['/api'])]);
    expect(onlyApi.match('GET', '/other')).toBeUndefined();
  });

  it('matches a route without paths on its methods alone', () => {
    const methodsOnly = new RouteMatcher([route('puts', null, ['PUT'])]);
    expect(methodsOnly.match('PUT', '/x')).toEqual({
      route: expect.objectContaining({ name: 'puts' }),
      matchedPath: null,
    });
    expect(methodsOnly.match('GET', '/x')).toBeUndefined();
  });
});
