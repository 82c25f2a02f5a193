import { describe, expect, it } from 'vitest';
import { parseRemotesManifest, remoteNameOf } from './remotes-manifest';

describe('remotes manifest', () => {
  it('keeps the known remotes with a URL and ignores the rest', () => {
    expect(
      parseRemotesManifest({
        catalog: ' /remotes/catalog/mf-manifest.json ',
        checkout: '',
        admin: 42,
        other: '/x',
      }),
    ).toEqual({ catalog: '/remotes/catalog/mf-manifest.json' });
  });

  it('refuses a document that is not an object', () => {
    expect(() => parseRemotesManifest(['catalog'])).toThrow(/must be an object/);
    expect(() => parseRemotesManifest(null)).toThrow(/must be an object/);
  });

  it('names the remote of a module id', () => {
    expect(remoteNameOf('checkout/CartPage')).toBe('checkout');
    expect(remoteNameOf('unknown/Page')).toBeUndefined();
  });
});
