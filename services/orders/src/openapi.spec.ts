import { checkOpenApiDocument } from '@shop/service-kit/openapi-check';
import { describe, it } from 'vitest';
import { SERVICE_ROOT, ordersOpenApi } from './openapi';

describe('services/orders/openapi.json', () => {
  it('is the document the code declares', async () => {
    await checkOpenApiDocument('orders', SERVICE_ROOT, await ordersOpenApi());
  });
});
