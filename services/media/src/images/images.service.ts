import { BadRequestException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { MEDIA_API, MEDIA_MESSAGES, type UploadImageResponse } from '@shop/contracts';
import { SERVICE_CONTEXT, type ServiceContext, isDuplicateKey } from '@shop/service-kit';
import type { Collection, Connection } from 'mongoose';
import type { MediaConfig } from '../config/media.config';
import { GridFsImageStore, type StoredImage } from './gridfs-image.store';
import { decodeImage } from './image-decoding';
import { type InspectedImage, inspectImage } from './image-inspection';
import { storedImageName } from './image-name';

const OBJECT_ID = /^[0-9a-f]{24}$/;

export interface IncomingImage {
  bytes: Uint8Array;
  originalName: string;
}

interface SeedImageRecord {
  _id: string;
  fileId: string;
  url: string;
}

const urlOf = (image: Pick<StoredImage, 'id' | 'filename'>) => `${MEDIA_API}/${image.id}/${image.filename}`;

/** The rules of the media service: what is accepted, how it is named, who may read what. */
@Injectable()
export class ImagesService {
  private readonly seedImages: Collection<SeedImageRecord>;

  constructor(
    private readonly store: GridFsImageStore,
    @InjectConnection() connection: Connection,
    @Inject(SERVICE_CONTEXT) private readonly context: ServiceContext<MediaConfig>,
  ) {
    this.seedImages = connection.collection<SeedImageRecord>('seed_images');
  }

  private get limits() {
    const { MAX_IMAGE_DIMENSION, MAX_IMAGE_MEGAPIXELS } = this.context.config;
    return { maxDimension: MAX_IMAGE_DIMENSION, maxMegapixels: MAX_IMAGE_MEGAPIXELS };
  }

  /**
   * What the bytes are, once they prove to be an accepted image that decodes in full within the
   * limits (else 400, 413 or 415): nothing that would fail to be shown or resized is ever stored.
   */
  private async accept(bytes: Uint8Array): Promise<InspectedImage> {
    const image = await inspectImage(bytes, this.limits);
    await decodeImage(bytes, this.context.config.MAX_IMAGE_MEGAPIXELS * 1e6);
    return image;
  }

  /** Stores the bytes of an accepted image under a new name made from the one it came with. */
  private save(incoming: IncomingImage, image: InspectedImage, owner: string, seedKey?: string) {
    return this.store.save(
      incoming.bytes,
      storedImageName(incoming.originalName, image.extension, Date.now()),
      {
        contentType: image.contentType,
        width: image.width,
        height: image.height,
        owner,
        originalName: incoming.originalName.slice(0, 255),
        ...(seedKey === undefined ? {} : { seedKey }),
      },
    );
  }

  /** Stores a user's upload once its bytes prove it is an accepted image; answers its URL. */
  async upload(ownerId: string, incoming: IncomingImage): Promise<UploadImageResponse> {
    const image = await this.accept(incoming.bytes);
    return { url: urlOf(await this.save(incoming, image, ownerId)) };
  }

  /**
   * Stores a demo picture once per seed key and answers its URL; the same key always answers the
   * same URL, also when two replicas of the seeding service ask at the same moment.
   */
  async storeSeedImage(seedKey: string, incoming: IncomingImage): Promise<UploadImageResponse> {
    const known = await this.seedImages.findOne({ _id: seedKey });
    if (known) return { url: known.url };
    const stored = await this.save(incoming, await this.accept(incoming.bytes), 'seed', seedKey);
    try {
      await this.seedImages.updateOne(
        { _id: seedKey },
        { $setOnInsert: { fileId: stored.id, url: urlOf(stored) } },
        { upsert: true },
      );
    } catch (error) {
      // Two first stores raced to insert the key; the other one won.
      if (!isDuplicateKey(error)) throw error;
    }
    const winner = await this.seedImages.findOne({ _id: seedKey });
    if (winner && winner.fileId !== stored.id) await this.store.remove(stored.id);
    return { url: winner?.url ?? urlOf(stored) };
  }

  /** The image stored under `id` with exactly this name; 404 for anything else. */
  async find(id: string, name: string): Promise<StoredImage> {
    if (!OBJECT_ID.test(id)) throw new BadRequestException('Invalid image id');
    const image = await this.store.find(id);
    if (!image || image.filename !== name) throw new NotFoundException(MEDIA_MESSAGES.notFound);
    return image;
  }

  open(image: StoredImage) {
    return this.store.open(image.id);
  }
}
