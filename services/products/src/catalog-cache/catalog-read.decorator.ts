import { type Type, UseInterceptors, applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiResponse } from '@nestjs/swagger';
import { TOTAL_COUNT_HEADERS } from '@shop/service-kit';
import { CATALOG_CACHE_CONTROL } from './catalog-http';
import { CatalogReadInterceptor } from './catalog-read.interceptor';

/**
 * A public catalog read: its answer is cached in memory and sent with a weak ETag and the
 * revalidation policy, and 304 when If-None-Match holds that ETag (catalog-http.ts); the OpenAPI
 * document says so. Put it only on routes that answer the same to everyone, never on one that looks
 * at the caller.
 */
export function CatalogRead(
  type: Type<unknown> | [Type<unknown>] | 'string[]',
  options: { counted?: boolean } = {},
): MethodDecorator {
  const schema = type === 'string[]' ? { schema: { type: 'array', items: { type: 'string' } } } : { type };
  return applyDecorators(
    UseInterceptors(CatalogReadInterceptor),
    ApiHeader({ name: 'If-None-Match', required: false, description: 'An ETag of an earlier answer' }),
    ApiOkResponse({
      ...schema,
      headers: {
        ETag: { description: 'Weak validator of this answer', schema: { type: 'string' } },
        'Cache-Control': { schema: { type: 'string', example: CATALOG_CACHE_CONTROL } },
        ...(options.counted ? TOTAL_COUNT_HEADERS : {}),
      },
    }),
    ApiResponse({ status: 304, description: 'Not modified: If-None-Match holds the current ETag' }),
  );
}
