import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { MediaContentType, MediaVariantWidth } from '@shop/contracts';
import { SERVICE_CONTEXT, type ServiceContext, isDuplicateKey } from '@shop/service-kit';
import { LRUCache } from 'lru-cache';
import { mongo } from 'mongoose';
import type { MediaConfig } from '../config/media.config';
import { GridFsImageStore, type StoredImage } from './gridfs-image.store';
import { type ResizedImage, resizeImage } from './image-resizer';
import { ImagesService } from './images.service';

/** A variant to serve: what is stored of it, and its bytes. */
export interface ImageVariant {
  image: StoredImage;
  bytes: Buffer;
}

/**
 * The variants served last, kept in memory: a grid's pictures are asked for by every shopper, and
 * a URL never changes what it points at, so nothing here is ever stale. 32 MiB holds thousands of
 * card-sized WebPs (a few KB each).
 */
const MEMORY_CACHE_BYTES = 32 * 1024 * 1024;

const EXTENSIONS: Record<MediaContentType, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

/**
 * The variant's GridFS id, derived from what it is (original, width, type) rather than drawn at
 * random: the store's unique `_id` then guarantees one copy per variant, also when two replicas make
 * the same one at the same moment. 12 bytes of a SHA-256 make an ObjectId like any other.
 */
function variantId(originalId: string, width: number, contentType: MediaContentType): mongo.ObjectId {
  const digest = createHash('sha256').update(`${originalId}/${width}/${contentType}`).digest();
  return new mongo.ObjectId(digest.subarray(0, 12));
}

/** `1767225600000-glock.png` at 320 as WebP → `1767225600000-glock-w320.webp`. */
function variantName(original: StoredImage, width: number, contentType: MediaContentType): string {
  const stem = original.filename.replace(/\.[^.]*$/, '');
  return `${stem}-w${width}.${EXTENSIONS[contentType]}`;
}

/**
 * Resized copies of stored images, made on first request and kept in the same GridFS bucket as the
 * originals, so every later request (on any replica) is a plain read; the hot ones are also kept
 * in memory, so a grid's pictures cost no database round trip at all.
 */
@Injectable()
export class ImageVariantsService {
  private readonly memory = new LRUCache<string, ImageVariant>({
    maxSize: MEMORY_CACHE_BYTES,
    sizeCalculation: (variant) => variant.bytes.length + 512,
  });
  /** Variants being looked up or made right now: concurrent requests for one wait for the same work. */
  private readonly pending = new Map<string, Promise<ImageVariant>>();

  constructor(
    private readonly images: ImagesService,
    private readonly store: GridFsImageStore,
    @Inject(SERVICE_CONTEXT) private readonly context: ServiceContext<MediaConfig>,
  ) {}

  /**
   * The image stored under `id` with exactly this `name` (else 400/404, as for the original), at
   * `width`, as WebP when the client takes it, else in its own type.
   */
  async variant(id: string, name: string, width: MediaVariantWidth, webp: boolean): Promise<ImageVariant> {
    const key = `${id}/${name}/${width}/${webp ? 'webp' : 'own'}`;
    const remembered = this.memory.get(key);
    if (remembered) return remembered;
    let pending = this.pending.get(key);
    if (!pending) {
      pending = this.load(id, name, width, webp)
        .then((variant) => {
          this.memory.set(key, variant);
          return variant;
        })
        .finally(() => this.pending.delete(key));
      this.pending.set(key, pending);
    }
    return pending;
  }

  private async load(
    id: string,
    name: string,
    width: MediaVariantWidth,
    webp: boolean,
  ): Promise<ImageVariant> {
    const original = await this.images.find(id, name);
    if (original.metadata.undecodable) return this.asIs(original);
    const contentType: MediaContentType = webp ? 'image/webp' : original.metadata.contentType;
    // Never enlarged: every width at or above the picture's own is one and the same variant.
    const drawnWidth = Math.min(width, original.metadata.width);
    const variant = variantId(original.id, drawnWidth, contentType);
    const stored = await this.store.find(variant.toHexString());
    if (stored) return { image: stored, bytes: await this.store.read(stored.id) };
    return this.make(original, drawnWidth, contentType, variant);
  }

  /** The original's own bytes, answered for every width of an image that cannot be resized. */
  private async asIs(original: StoredImage): Promise<ImageVariant> {
    return { image: original, bytes: await this.store.read(original.id) };
  }

  private async make(
    original: StoredImage,
    width: number,
    contentType: MediaContentType,
    id: mongo.ObjectId,
  ): Promise<ImageVariant> {
    const bytes = await this.store.read(original.id);
    let resized: ResizedImage;
    try {
      resized = await resizeImage(bytes, width, contentType, this.context.config.MAX_IMAGE_MEGAPIXELS * 1e6);
    } catch (error) {
      // Damaged pixel data stored before uploads were decoded in full (or over today's pixel limit):
      // the picture is served as it is (a browser may still show what it can of it), never a 500,
      // and the failure is recorded on the original so no later request, here or on another
      // replica, tries again.
      const reason = error instanceof Error ? error.message : String(error);
      await this.store.markUndecodable(original.id, reason);
      this.context.logger.warn(
        { imageId: original.id, filename: original.filename, reason },
        'stored image cannot be resized; its variants are the original from now on',
      );
      return { image: original, bytes };
    }
    const { metadata } = original;
    const filename = variantName(original, width, contentType);
    const variantMetadata = {
      contentType,
      width: resized.width,
      height: resized.height,
      owner: metadata.owner,
      originalName: metadata.originalName,
      variantOf: original.id,
      variantWidth: width,
    };
    try {
      return {
        image: await this.store.save(resized.bytes, filename, variantMetadata, id),
        bytes: resized.bytes,
      };
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      // Another replica is storing (or has stored) the same variant: serve the copy made here,
      // which is the same picture; later requests read theirs.
      const sha256 = createHash('sha256').update(resized.bytes).digest('hex');
      return {
        image: {
          id: id.toHexString(),
          filename,
          length: resized.bytes.length,
          metadata: { ...variantMetadata, sha256 },
        },
        bytes: resized.bytes,
      };
    }
  }
}
