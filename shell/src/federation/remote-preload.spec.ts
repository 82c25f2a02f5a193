import { describe, expect, it } from 'vitest';
import { remoteScriptUrls, runsOnArrival } from './remote-preload';

const MANIFEST_URL = 'https://shop.example/remotes/catalog/0.2.0/mf-manifest.json';

/** The part of an mf-manifest.json the hints read, as the federation plugin writes it. */
const manifest = (metaData: Record<string, unknown>) => ({
  metaData,
  exposes: [
    {
      name: 'HomePage',
      path: './HomePage',
      assets: { js: { sync: ['385.a.js', 'expose_HomePage.b.js'], async: ['262.c.js'] } },
    },
    { name: 'ProductPage', path: './ProductPage', assets: { js: { sync: ['60.d.js'], async: [] } } },
  ],
});

describe('remote preload hints', () => {
  it('names the remote entry and the exposed module’s own chunks under the manifest’s folder', () => {
    expect(
      remoteScriptUrls(
        manifest({ publicPath: 'auto', remoteEntry: { name: 'remoteEntry.js', path: '' } }),
        MANIFEST_URL,
        './HomePage',
      ),
    ).toEqual([
      'https://shop.example/remotes/catalog/0.2.0/remoteEntry.js',
      'https://shop.example/remotes/catalog/0.2.0/385.a.js',
      'https://shop.example/remotes/catalog/0.2.0/expose_HomePage.b.js',
    ]);
  });

  it('places the entry in its folder and honours a public path given as a URL', () => {
    expect(
      remoteScriptUrls(
        manifest({
          publicPath: 'https://cdn.example/catalog/',
          remoteEntry: { name: 'remoteEntry.js', path: '/js/' },
        }),
        MANIFEST_URL,
        './ProductPage',
      ),
    ).toEqual(['https://cdn.example/catalog/js/remoteEntry.js', 'https://cdn.example/catalog/60.d.js']);
  });

  it('hints nothing it would have to guess: a computed public path, an unknown module, no manifest', () => {
    const entry = { name: 'remoteEntry.js', path: '' };
    expect(
      remoteScriptUrls(
        manifest({ getPublicPath: 'return "/x/"', remoteEntry: entry }),
        MANIFEST_URL,
        './HomePage',
      ),
    ).toEqual([]);
    expect(
      remoteScriptUrls(manifest({ publicPath: 'auto', remoteEntry: entry }), MANIFEST_URL, './Nope'),
    ).toEqual([]);
    expect(remoteScriptUrls(undefined, MANIFEST_URL, './HomePage')).toEqual([]);
    expect(remoteScriptUrls({ metaData: { publicPath: 'auto' } }, MANIFEST_URL, './HomePage')).toEqual([]);
  });

  it('runs on arrival only an entry that defines a global container', () => {
    const withEntry = (type: unknown) =>
      manifest({ publicPath: 'auto', remoteEntry: { name: 'remoteEntry.js', type } });
    expect(runsOnArrival(withEntry('global'))).toBe(true);
    expect(runsOnArrival(withEntry('module'))).toBe(false);
    expect(runsOnArrival(withEntry(undefined))).toBe(false);
    expect(runsOnArrival(undefined)).toBe(false);
  });
});
