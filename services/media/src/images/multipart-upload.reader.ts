import { BadRequestException, HttpException, PayloadTooLargeException } from '@nestjs/common';
import { MEDIA_MAX_BYTES, MEDIA_MESSAGES, MEDIA_UPLOAD_FIELD } from '@shop/contracts';
import type { FastifyRequest } from 'fastify';
import type { IncomingImage } from './images.service';

const ONE_FILE = `Send one image, as multipart/form-data in a field named ${MEDIA_UPLOAD_FIELD}`;

/** @fastify/multipart and busboy errors carry a code; each becomes a status and a readable message. */
function translate(error: unknown): unknown {
  if (error instanceof HttpException) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new PayloadTooLargeException(MEDIA_MESSAGES.tooLarge);
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
    return new BadRequestException(ONE_FILE);
  }
  if (error instanceof Error) return new BadRequestException(`Malformed multipart body: ${error.message}`);
  return error;
}

/**
 * Reads the one image of an upload: multipart, a single file in the field `file`, at most 3 MB
 * (reading stops at the limit). Other text fields are ignored.
 */
export async function readSingleImage(request: FastifyRequest): Promise<IncomingImage> {
  if (!request.isMultipart()) throw new BadRequestException(ONE_FILE);
  let image: IncomingImage | undefined;
  try {
    const parts = request.parts({
      limits: {
        fileSize: MEDIA_MAX_BYTES,
        files: 1,
        fields: 10,
        fieldSize: 1_024,
        parts: 11,
        headerPairs: 50,
      },
    });
    for await (const part of parts) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== MEDIA_UPLOAD_FIELD) throw new BadRequestException(ONE_FILE);
      image = { bytes: await part.toBuffer(), originalName: part.filename ?? '' };
    }
  } catch (error) {
    throw translate(error);
  }
  if (!image) throw new BadRequestException(ONE_FILE);
  return image;
}
