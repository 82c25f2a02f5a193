import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { IsMediaUrl, IsMediaUrlOrEmpty } from './media-url';

const MEDIA_URL = '/api/media/65a1f0c2e4b0a1b2c3d4e5f6/1712345678-receipt.png';

class Body {
  @IsMediaUrl() receiptUrl?: unknown;
  @IsMediaUrlOrEmpty() logo?: unknown;
}

/** The messages of what `plain` breaks, by field. */
const refusals = (plain: Record<string, unknown>) =>
  Object.fromEntries(
    validateSync(plainToInstance(Body, { receiptUrl: MEDIA_URL, logo: MEDIA_URL, ...plain })).map((error) => [
      error.property,
      error.constraints,
    ]),
  );

describe('media URL validators', () => {
  it('take an image the media service stored', () => {
    expect(refusals({})).toEqual({});
  });

  it("IsMediaUrl refuses anything else, '' too, naming the field", () => {
    for (const bad of ['', 'https://evil.example/x.png', 'javascript:alert(1)', '/api/media/../x', 5, null]) {
      expect(refusals({ receiptUrl: bad }), String(bad)).toEqual({
        receiptUrl: { isMediaUrl: 'receiptUrl must be an image uploaded to this shop (/api/media/...)' },
      });
    }
  });

  it("IsMediaUrlOrEmpty also takes '' (no image) and refuses the rest, naming the field", () => {
    expect(refusals({ logo: '' })).toEqual({});
    for (const bad of ['https://evil.example/x.png', 'file:///etc/passwd', ' ', undefined]) {
      expect(refusals({ logo: bad }), String(bad)).toEqual({
        logo: { isMediaUrlOrEmpty: 'logo must be an image uploaded to this shop (/api/media/...) or empty' },
      });
    }
  });
});
