import { checkOpenApiDocument } from '@shop/service-kit/openapi-check';
import { describe, it } from 'vitest';
import { SERVICE_ROOT, mediaOpenApi } from './openapi';

describe('services/media/openapi.json', () => {
  it('is the document the code declares', async () => {
    await checkOpenApiDocument('media', SERVICE_ROOT, await mediaOpenApi());
  });
});
