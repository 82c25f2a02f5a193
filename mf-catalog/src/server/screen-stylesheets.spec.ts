import { describe, expect, it } from 'vitest';
import { stylesheetLinks, stylesheetsOf } from './screen-stylesheets';

describe('stylesheetsOf', () => {
  const manifest = {
    exposes: [
      { name: 'HomePage', assets: { css: { sync: ['home.1.css', 'shared.2.css'], async: ['lazy.css'] } } },
      { name: 'LegalPage', assets: { css: { sync: [], async: [] } } },
      { name: 'Odd', assets: { css: { sync: ['../../etc/passwd', 'x.css"><script>', 7, 'ok.css'] } } },
    ],
  };

  it("lists a screen's stylesheets needed at once, as the manifest names them", () => {
    expect(stylesheetsOf(manifest, 'HomePage')).toEqual(['home.1.css', 'shared.2.css']);
    expect(stylesheetsOf(manifest, 'LegalPage')).toEqual([]);
  });

  it('answers none for a screen, a manifest or a file name it cannot use', () => {
    expect(stylesheetsOf(manifest, 'ProductPage')).toEqual([]);
    expect(stylesheetsOf(undefined, 'HomePage')).toEqual([]);
    expect(stylesheetsOf({ exposes: 'no' }, 'HomePage')).toEqual([]);
    expect(stylesheetsOf(manifest, 'Odd')).toEqual(['ok.css']);
  });
});

describe('stylesheetLinks', () => {
  it('links each file by its full URL under the version where the remote is published', () => {
    expect(stylesheetLinks(['a.css', 'b.css'], 'http://localhost:8000', '1.2.0')).toBe(
      '<link rel="stylesheet" href="http://localhost:8000/remotes/catalog/1.2.0/a.css"/>' +
        '<link rel="stylesheet" href="http://localhost:8000/remotes/catalog/1.2.0/b.css"/>',
    );
    expect(stylesheetLinks([], 'http://localhost:8000', '1.2.0')).toBe('');
  });
});
