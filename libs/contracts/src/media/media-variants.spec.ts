import { describe, expect, it } from 'vitest';
import { MEDIA_VARIANT_WIDTHS, mediaSrcSet, mediaVariantUrl, parseMediaWidth } from './media-variants';

const url = '/api/media/65a1f0c2e4b0a1b2c3d4e5f6/1767225600000-glock.png';

describe('parseMediaWidth', () => {
  it('accepts exactly the widths offered', () => {
    for (const width of MEDIA_VARIANT_WIDTHS) expect(parseMediaWidth(String(width))).toBe(width);
  });

  it('refuses any other width, spelling or type', () => {
    for (const value of [
      '321',
      '0',
      '-320',
      '0320',
      '320.0',
      '3e2',
      ' 320',
      '320px',
      '',
      '99999999',
      'abc',
    ]) {
      expect(parseMediaWidth(value), value).toBeUndefined();
    }
    expect(parseMediaWidth(['320', '480'])).toBeUndefined();
    expect(parseMediaWidth(320)).toBeUndefined();
    expect(parseMediaWidth(undefined)).toBeUndefined();
  });
});

describe('mediaSrcSet', () => {
  it('lists every variant of a media URL with its width descriptor', () => {
    expect(mediaVariantUrl(url, 480)).toBe(`${url}?w=480`);
    expect(mediaSrcSet(url)).toBe(MEDIA_VARIANT_WIDTHS.map((w) => `${url}?w=${w} ${w}w`).join(', '));
  });

  it('offers nothing for a picture the media service did not store', () => {
    expect(mediaSrcSet('https://cdn.example/glock.png')).toBeUndefined();
    expect(mediaSrcSet('/img/g19.jpg')).toBeUndefined();
  });
});
