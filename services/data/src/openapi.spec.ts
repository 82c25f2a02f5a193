import { checkOpenApiDocument } from '@shop/service-kit/openapi-check';
import { describe, it } from 'vitest';
import { SERVICE_ROOT, dataOpenApi } from './openapi';

describe('services/data/openapi.json', () => {
  it('is the document the code declares', async () => {
    await checkOpenApiDocument('data', SERVICE_ROOT, await dataOpenApi());
  });
});
