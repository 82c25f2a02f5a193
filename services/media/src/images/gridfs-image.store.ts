import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import type { MediaContentType } from '@shop/contracts';
import { type Connection, mongo } from 'mongoose';

const IMAGES_BUCKET = 'images';

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
  /** On a resized copy: the id of the original it was made from, and the width it was made at. */
  variantOf?: string;
  variantWidth?: number;
  /**
   * On an original that libvips could not resize (stored before uploads were decoded in full):
   * why, and when that was found. Its variants are then the original as it is, with no new attempt.
   */
  undecodable?: { reason: string; at: Date };
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

  /**
   * Stores the bytes under `id` (a new one by default); the write is acknowledged when this
   * resolves. An id that is taken fails with the database's duplicate-key error (code 11000).
   */
  async save(
    bytes: Uint8Array,
    filename: string,
    metadata: Omit<ImageMetadata, 'sha256'>,
    id: mongo.ObjectId = new mongo.ObjectId(),
  ): Promise<StoredImage> {
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

  /** All the bytes of a stored image (at most the 3 MB an upload may have). */
  async read(id: string): Promise<Buffer> {
    const parts: Buffer[] = [];
    for await (const part of this.open(id)) parts.push(part as Buffer);
    return Buffer.concat(parts);
  }

  /** Records on a stored image that it cannot be decoded (see `ImageMetadata.undecodable`). */
  async markUndecodable(id: string, reason: string): Promise<void> {
    await this.connection
      .collection(`${IMAGES_BUCKET}.files`)
      .updateOne(
        { _id: new mongo.ObjectId(id) },
        { $set: { 'metadata.undecodable': { reason: reason.slice(0, 500), at: new Date() } } },
      );
  }

  async remove(id: string): Promise<void> {
    await this.bucket.delete(new mongo.ObjectId(id));
  }
}
