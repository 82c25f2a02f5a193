import { join } from 'node:path';
import { previewContext } from '@shop/service-kit';
import { checkOpenApiDocument } from '@shop/service-kit/openapi-check';
import { it } from 'vitest';
import { AppModule } from './app.module';
import { mediaConfigSchema } from './config/media.config';

it('services/media/openapi.json is the document the code declares', () =>
  checkOpenApiDocument(
    join(__dirname, '..'),
    AppModule.register(previewContext('media', mediaConfigSchema)),
  ));
