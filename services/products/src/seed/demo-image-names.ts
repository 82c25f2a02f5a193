/** Where the products service serves a demo image; the names double as the seed's image URLs. */
export const DEMO_IMAGES_PATH = '/api/products/demo-images';

export function demoImageName(slug: string, index: number): string {
  return `${slug}-${index + 1}.png`;
}
