import { type Type, applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiResponse } from '@nestjs/swagger';
import { TOTAL_COUNT_HEADERS } from '@shop/service-kit';
import { CATALOGUE_CACHE_CONTROL } from './catalogue-http';

/**
 * What a public catalogue read says in the OpenAPI document: its answer with a weak ETag and the
 * revalidation policy, and 304 when If-None-Match holds that ETag (see catalogue-http.ts).
 */
export function ApiCatalogueRead(
  type: Type<unknown> | [Type<unknown>] | 'string[]',
  options: { counted?: boolean } = {},
): MethodDecorator {
  const schema = type === 'string[]' ? { schema: { type: 'array', items: { type: 'string' } } } : { type };
  return applyDecorators(
    ApiHeader({ name: 'If-None-Match', required: false, description: 'An ETag of an earlier answer' }),
    ApiOkResponse({
      ...schema,
      headers: {
        ETag: { description: 'Weak validator of this answer', schema: { type: 'string' } },
        'Cache-Control': { schema: { type: 'string', example: CATALOGUE_CACHE_CONTROL } },
        ...(options.counted ? TOTAL_COUNT_HEADERS : {}),
      },
    }),
    ApiResponse({ status: 304, description: 'Not modified: If-None-Match holds the current ETag' }),
  );
}
