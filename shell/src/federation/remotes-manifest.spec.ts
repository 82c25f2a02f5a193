import { describe, expect, it } from 'vitest';
import { renderedAttributeValue, renderedRemoteVersions } from '../first-screen/rendered-attribute';
import { parseRemotesManifest, pinnedToRendered, remoteNameOf } from './remotes-manifest';

describe('remotes manifest', () => {
  it('reads schema 2: each remote with its version and URL', () => {
    expect(
      parseRemotesManifest({
        schemaVersion: 2,
        remotes: {
          catalog: { version: '0.2.0', url: '/remotes/catalog/0.2.0/mf-manifest.json' },
          checkout: { version: '0.1.0', url: 'https://cdn.example.com/checkout/0.1.0/mf-manifest.json' },
        },
      }),
    ).toEqual({
      catalog: { version: '0.2.0', url: '/remotes/catalog/0.2.0/mf-manifest.json' },
      checkout: { version: '0.1.0', url: 'https://cdn.example.com/checkout/0.1.0/mf-manifest.json' },
    });
  });

  it('finds a build named by its version alone at its path behind the gateway', () => {
    expect(parseRemotesManifest({ schemaVersion: 2, remotes: { admin: { version: '1.0.0-rc.1' } } })).toEqual(
      {
        admin: { version: '1.0.0-rc.1', url: '/remotes/admin/1.0.0-rc.1/mf-manifest.json' },
      },
    );
  });

  it('ignores the fields and remotes it does not know, as a newer schema may add them', () => {
    expect(
      parseRemotesManifest({
        schemaVersion: 3,
        environment: 'prod',
        remotes: {
          catalog: {
            version: '0.3.0',
            url: '/remotes/catalog/0.3.0/mf-manifest.json',
            integrity: 'sha384-x',
          },
          checkout: { url: ' ' },
          admin: 'not an object',
          wishlist: { version: '0.1.0' },
        },
      }),
    ).toEqual({ catalog: { version: '0.3.0', url: '/remotes/catalog/0.3.0/mf-manifest.json' } });
  });

  it('still reads the flat shape of earlier shells, keeping the known remotes with a URL', () => {
    expect(
      parseRemotesManifest({
        catalog: ' /remotes/catalog/mf-manifest.json ',
        checkout: '',
        admin: 42,
        other: '/x',
      }),
    ).toEqual({ catalog: { url: '/remotes/catalog/mf-manifest.json' } });
  });

  it('refuses a document that is not an object, or a schema without its remotes', () => {
    expect(() => parseRemotesManifest(['catalog'])).toThrow(/must be an object/);
    expect(() => parseRemotesManifest(null)).toThrow(/must be an object/);
    expect(() => parseRemotesManifest({ schemaVersion: 2, catalog: '/x' })).toThrow(/no "remotes" object/);
  });

  it('pins a remote a rendered page was drawn by to that version, whatever remotes.json names by then', () => {
    const named = parseRemotesManifest({
      schemaVersion: 2,
      remotes: {
        catalog: { version: '0.3.0', url: 'https://cdn.example.com/catalog/0.3.0/mf-manifest.json' },
        checkout: { version: '0.1.0', url: 'https://cdn.example.com/checkout/0.1.0/mf-manifest.json' },
      },
    });
    // Switched to 0.3.0 after the server drew the page with 0.2.0: the page keeps 0.2.0, at its usual path.
    expect(pinnedToRendered(named, { catalog: '0.2.0' })).toEqual({
      catalog: { version: '0.2.0', url: '/remotes/catalog/0.2.0/mf-manifest.json' },
      checkout: named.checkout,
    });
    // The same version keeps its own URL; a page drawn in the browser pins nothing.
    expect(pinnedToRendered(named, { catalog: '0.3.0' })).toEqual(named);
    expect(pinnedToRendered(named, {})).toEqual(named);
    // The flat shape names no version: nothing says it differs.
    const flat = parseRemotesManifest({ catalog: '/remotes/catalog/mf-manifest.json' });
    expect(pinnedToRendered(flat, { catalog: '0.2.0' })).toEqual(flat);
  });

  it('reads the rendered versions the page server writes on <html>', () => {
    const root = document.createElement('html');
    root.setAttribute(
      'data-rendered',
      renderedAttributeValue({ catalog: '0.2.0-next.1', checkout: 'a b@c' }),
    );
    expect(root.getAttribute('data-rendered')).toBe('catalog@0.2.0-next.1 checkout@a%20b%40c');
    expect(renderedRemoteVersions(root)).toEqual({ catalog: '0.2.0-next.1', checkout: 'a b@c' });
    root.setAttribute('data-rendered', '');
    expect(renderedRemoteVersions(root)).toEqual({});
    root.setAttribute('data-rendered', 'catalog@%E0%A4%A bad @x');
    expect(renderedRemoteVersions(root)).toEqual({});
  });

  it('names the remote of a module id', () => {
    expect(remoteNameOf('checkout/CartPage')).toBe('checkout');
    expect(remoteNameOf('unknown/Page')).toBeUndefined();
  });
});
