import {
  BadRequestException,
  Controller,
  Get,
  Headers,
  HttpCode,
  Param,
  Post,
  Query,
  Req,
  Res,
  ServiceUnavailableException,
} from '@nestjs/common';
import {
  MEDIA_ACCEPTED_TYPES,
  MEDIA_UPLOAD_FIELD,
  MEDIA_VARIANT_MESSAGES,
  MEDIA_VARIANT_WIDTHS,
  MEDIA_WIDTH_PARAM,
  type UploadImageResponse,
  parseMediaWidth,
} from '@shop/contracts';
import {
  type AuthenticatedUser,
  Authenticated,
  ApiErrors,
  CurrentUser,
  FeatureFlags,
  refusalReason,
  shopCounter,
} from '@shop/service-kit';
import {
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiQuery,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { UploadThrottleService } from '../throttling/upload-throttle.service';
import { ImageVariantsService } from './image-variants.service';
import { ImagesService } from './images.service';
import { UploadImageBody } from './dto/upload-image.response';
import { readSingleImage } from './multipart-upload.reader';

/** True when an `If-None-Match` header names this entity tag (or `*`). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

/** True when an `Accept` header names WebP (with a quality above 0): every current browser's does for images. */
function acceptsWebp(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(',').some((range) => {
    const [type, ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    if (type !== 'image/webp') return false;
    const quality = parameters.find((parameter) => parameter.startsWith('q='));
    return quality === undefined || Number(quality.slice(2)) > 0;
  });
}

/** `shop_uploads_refused_total{reason}`: by the refusal's status. */
const UPLOAD_REFUSALS = { 400: 'invalid', 413: 'too_large', 429: 'throttled' };

@ApiTags('media')
@Controller('api/media')
export class ImagesController {
  private readonly uploadsRefused = shopCounter('shop.uploads.refused', 'Uploads refused, by reason');

  constructor(
    private readonly images: ImagesService,
    private readonly variants: ImageVariantsService,
    private readonly throttle: UploadThrottleService,
    private readonly flags: FeatureFlags,
  ) {}

  /** `POST /api/media`: one image, multipart field `file`, at most 3 MB; answers `{ url }`. */
  @Post()
  @Authenticated()
  @HttpCode(201)
  @ApiOperation({ summary: 'Upload one image (PNG, JPEG, WebP or GIF, judged by its bytes; at most 3 MB)' })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      properties: { [MEDIA_UPLOAD_FIELD]: { type: 'string', format: 'binary' } },
      required: [MEDIA_UPLOAD_FIELD],
    },
  })
  @ApiCreatedResponse({ type: UploadImageBody })
  @ApiErrors(400, 413, 415, 429)
  async upload(
    @CurrentUser() user: AuthenticatedUser,
    @Req() request: FastifyRequest,
  ): Promise<UploadImageResponse> {
    try {
      await this.throttle.take(user.id);
      return await this.images.upload(user.id, await readSingleImage(request));
    } catch (error) {
      this.uploadsRefused.add(1, { reason: refusalReason(error, UPLOAD_REFUSALS) });
      throw error;
    }
  }

  /**
   * `GET /api/media/{id}/{name}`: the bytes with the type they were proven to be; with `?w=` one of
   * the offered widths, a resized copy (WebP when the client takes it, hence `Vary: Accept`). A URL
   * never changes what it points at, so it may be cached for good; `nosniff` and a CSP keep a
   * browser from treating the bytes as anything else, whoever links to them.
   */
  @Get(':id/:name')
  @ApiOperation({ summary: 'An image, or a resized copy of it (WebP when accepted)' })
  @ApiQuery({
    name: MEDIA_WIDTH_PARAM,
    required: false,
    enum: [...MEDIA_VARIANT_WIDTHS],
    description: 'Width of a resized copy',
  })
  @ApiHeader({ name: 'If-None-Match', required: false, description: 'The ETag of a copy already held' })
  @ApiProduces(...MEDIA_ACCEPTED_TYPES)
  @ApiOkResponse({
    description: 'The bytes, with the type they were proven to be; cacheable for good',
    schema: { type: 'string', format: 'binary' },
    headers: {
      ETag: { description: 'The SHA-256 of the stored image', schema: { type: 'string' } },
      'Cache-Control': { schema: { type: 'string', example: 'public, max-age=31536000, immutable' } },
    },
  })
  @ApiResponse({ status: 304, description: 'Not modified: If-None-Match holds the ETag' })
  @ApiErrors(404)
  async serve(
    @Param('id') id: string,
    @Param('name') name: string,
    @Query(MEDIA_WIDTH_PARAM) widthParam: unknown,
    @Headers('accept') accept: string | undefined,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const width = widthParam === undefined ? undefined : parseMediaWidth(widthParam);
    if (widthParam !== undefined && width === undefined) {
      throw new BadRequestException(MEDIA_VARIANT_MESSAGES.badWidth);
    }
    if (width) {
      // The fault flags `mediaVariantDelay` and `mediaVariantFailure`: size variants slow, or failing.
      await this.flags.delay('mediaVariantDelay');
      if (await this.flags.fails('mediaVariantFailure')) {
        throw new ServiceUnavailableException('The picture cannot be resized right now, please try again');
      }
    }
    const { image, bytes } = width
      ? await this.variants.variant(id, name, width, acceptsWebp(accept))
      : { image: await this.images.find(id, name), bytes: undefined };
    const etag = `"${image.metadata.sha256}"`;
    void reply
      .header('etag', etag)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox");
    if (width) void reply.header('vary', 'Accept');
    if (matchesEtag(ifNoneMatch, etag)) {
      await reply.status(304).send();
      return;
    }
    await reply
      .status(200)
      .header('content-type', image.metadata.contentType)
      .header('content-length', String(image.length))
      .header('content-disposition', `inline; filename="${image.filename}"`)
      .send(bytes ?? this.images.open(image));
  }
}
