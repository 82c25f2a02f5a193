import { Controller, Get, Header, NotFoundException, Param, StreamableFile } from '@nestjs/common';
import { DEMO_CATALOGUE } from './demo-catalogue';
import { demoImageName } from './demo-image-names';
import { renderDemoImage } from './demo-images';

/**
 * Serves the demo catalogue's pictures, drawn on first request and kept in memory: nothing is
 * downloaded and nothing is stored. When the media service exists the seed will upload them there.
 */
@Controller('api/products/demo-images')
export class DemoImagesController {
  private readonly cache = new Map<string, Buffer>();
  private readonly known = new Map(
    DEMO_CATALOGUE.flatMap((product) =>
      Array.from(
        { length: product.imageCount },
        (_, i) => [demoImageName(product.slug, i), { product, i }] as const,
      ),
    ),
  );

  @Get(':file')
  @Header('Content-Type', 'image/png')
  @Header('Cache-Control', 'public, max-age=31536000, immutable')
  @Header('X-Content-Type-Options', 'nosniff')
  image(@Param('file') file: string): StreamableFile {
    const entry = this.known.get(file);
    if (!entry) throw new NotFoundException('Image not found');
    let png = this.cache.get(file);
    if (!png) {
      png = renderDemoImage(entry.product.shape, entry.product.accent, entry.i);
      this.cache.set(file, png);
    }
    return new StreamableFile(png);
  }
}
