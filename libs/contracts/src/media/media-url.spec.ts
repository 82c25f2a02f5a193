import { describe, expect, it } from 'vitest';
import { isMediaUrl } from './media-url';

const id = '65a1f0c2e4b0a1b2c3d4e5f6';

describe('isMediaUrl', () => {
  it('accepts the URLs the media service answers', () => {
    expect(isMediaUrl(`/api/media/${id}/receipt.png`)).toBe(true);
    expect(isMediaUrl(`/api/media/${id}/my%20photo%20(1).jpeg`)).toBe(true);
    expect(isMediaUrl(`/api/media/${id.toUpperCase()}/logo.webp`)).toBe(true);
  });

  it('refuses other hosts, schemes and relative tricks', () => {
    for (const url of [
      `https://evil.example/api/media/${id}/x.png`,
      `//evil.example/api/media/${id}/x.png`,
      'javascript:alert(1)',
      `/api/media/${id}/../../users/x`,
      `/api/media/${id}/..`,
      `/api/media/${id}/.`,
      `/api/media/${id}/a/b.png`,
      `/api/media/${id}/`,
      `/api/media/${id.slice(1)}/x.png`,
      `/api/media/zz${id.slice(2)}/x.png`,
      `/api/media/${id}/x.png?download=1`,
      `/api/media/${id}/x.png#frag`,
      `/api/media/${id}/bad%zzname`,
      `/api/media/${id}/a b.png`,
      `/api/media/${id}/"onerror=alert(1).png`,
      `/api/products/${id}/x.png`,
      `/api/media/${id}/${'a'.repeat(300)}`,
      '',
    ]) {
      expect(isMediaUrl(url), url).toBe(false);
    }
  });

  it('refuses anything that is not a string', () => {
    expect(isMediaUrl(undefined)).toBe(false);
    expect(isMediaUrl(null)).toBe(false);
    expect(isMediaUrl({ url: `/api/media/${id}/x.png` })).toBe(false);
  });
});
