import { checkOpenApiDocument } from '@shop/service-kit/openapi-check';
import { describe, it } from 'vitest';
import { SERVICE_ROOT, productsOpenApi } from './openapi';

describe('services/products/openapi.json', () => {
  it('is the document the code declares', async () => {
    await checkOpenApiDocument('products', SERVICE_ROOT, await productsOpenApi());
  });
});
