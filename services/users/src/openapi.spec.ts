import { checkOpenApiDocument } from '@shop/service-kit/openapi-check';
import { describe, it } from 'vitest';
import { SERVICE_ROOT, usersOpenApi } from './openapi';

describe('services/users/openapi.json', () => {
  it('is the document the code declares', async () => {
    await checkOpenApiDocument('users', SERVICE_ROOT, await usersOpenApi());
  });
});
