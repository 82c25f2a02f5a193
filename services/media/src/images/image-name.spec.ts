import { isMediaUrl } from '@shop/contracts';
import { describe, expect, it } from 'vitest';
import { storedImageName } from './image-name';

const NOW = 1_767_225_600_000;
const id = '65a1f0c2e4b0a1b2c3d4e5f6';

describe('storedImageName', () => {
  it('is the timestamp and a slug of the original name, with the true extension', () => {
    expect(storedImageName('Holiday Photo (1).JPG', 'png', NOW)).toBe(`${NOW}-holiday-photo-1.png`);
    expect(storedImageName('Crème brûlée.webp', 'webp', NOW)).toBe(`${NOW}-creme-brulee.webp`);
  });

  it('keeps nothing of a path, markup or a double extension', () => {
    expect(storedImageName('../../etc/passwd', 'gif', NOW)).toBe(`${NOW}-passwd.gif`);
    expect(storedImageName('C:\\fakepath\\evil.svg.png', 'png', NOW)).toBe(`${NOW}-evilsvg.png`);
    expect(storedImageName('"><img src=x onerror=alert(1)>.png', 'jpg', NOW)).toMatch(
      /^\d+-[a-z0-9-]+\.jpg$/,
    );
  });

  it("falls back to 'image' when nothing usable is left, and stays short", () => {
    expect(storedImageName('???.png', 'png', NOW)).toBe(`${NOW}-image.png`);
    expect(storedImageName('', 'png', NOW)).toBe(`${NOW}-image.png`);
    expect(storedImageName(`${'a'.repeat(500)}.png`, 'png', NOW).length).toBeLessThan(90);
  });

  it('always makes a URL the rest of the shop accepts as ours', () => {
    for (const name of ['x.png', '../../a', 'ünïcödé 🙂.gif', ' ', 'a'.repeat(300)]) {
      expect(isMediaUrl(`/api/media/${id}/${storedImageName(name, 'png', NOW)}`), name).toBe(true);
    }
  });
});
