import { checkOpenApiDocument } from '@shop/service-kit/openapi-check';
import { describe, it } from 'vitest';
import { SERVICE_ROOT, walletOpenApi } from './openapi';

describe('services/wallet/openapi.json', () => {
  it('is the document the code declares', async () => {
    await checkOpenApiDocument('wallet', SERVICE_ROOT, await walletOpenApi());
  });
});
