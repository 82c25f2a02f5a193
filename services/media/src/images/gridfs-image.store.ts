import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type { MediaContentType } from '@shop/contracts';
import { type Connection, mongo } from 'mongoose';

export const IMAGES_BUCKET = 'images';

/** What is kept beside each image's bytes (GridFS `metadata`). */
export interface ImageMetadata {
  contentType: MediaContentType;
  sha256: string;
  width: number;
  height: number;
  /** The uploader's user id, or `seed` for demo pictures. */
  owner: string;
  originalName: string;
  seedKey?: string;
}

export interface StoredImage {
  id: string;
  filename: string;
  length: number;
  metadata: ImageMetadata;
}

/** Image bytes in GridFS (bucket `images`), so they live in the service's own database. */
@Injectable()
export class GridFsImageStore {
  private bucketInstance?: mongo.GridFSBucket;

  constructor(@InjectConnection() private readonly connection: Connection) {}

  private get bucket(): mongo.GridFSBucket {
    this.bucketInstance ??= new mongo.GridFSBucket(this.connection.db!, { bucketName: IMAGES_BUCKET });
    return this.bucketInstance;
  }

  /** Stores the bytes under a new id; the write is acknowledged when this resolves. */
  async save(
    bytes: Uint8Array,
    filename: string,
    metadata: Omit<ImageMetadata, 'sha256'>,
  ): Promise<StoredImage> {
    const id = new mongo.ObjectId();
    const full: ImageMetadata = { ...metadata, sha256: createHash('sha256').update(bytes).digest('hex') };
    const upload = this.bucket.openUploadStreamWithId(id, filename, { metadata: full });
    await new Promise<void>((resolve, reject) => {
      upload.once('finish', () => resolve());
      upload.once('error', reject);
      upload.end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
    });
    return { id: id.toHexString(), filename, length: bytes.length, metadata: full };
  }

  async find(id: string): Promise<StoredImage | null> {
    const file = await this.bucket
      .find({ _id: new mongo.ObjectId(id) })
      .limit(1)
      .next();
    if (!file) return null;
    return { id, filename: file.filename, length: file.length, metadata: file.metadata as ImageMetadata };
  }

  open(id: string): Readable {
    return this.bucket.openDownloadStream(new mongo.ObjectId(id));
  }

  async remove(id: string): Promise<void> {
    await this.bucket.delete(new mongo.ObjectId(id));
  }
}
