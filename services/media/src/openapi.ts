import { join } from 'node:path';
import type { OpenAPIObject } from '@nestjs/swagger';
import { openApiDocument, previewContext } from '@shop/service-kit';
import { AppModule } from './app.module';
import { mediaConfigSchema } from './config/media.config';

/** The media API as its controllers and DTOs declare it (OpenAPI 3.1), built without a database or broker. */
export function mediaOpenApi(): Promise<OpenAPIObject> {
  return openApiDocument({
    name: 'media',
    description: 'image uploads sniffed by their bytes, stored in GridFS and served with their true type.',
    version: '1.0.0',
    module: AppModule.register(previewContext('media', mediaConfigSchema)),
  });
}

/** services/media, where openapi.json is committed (this file runs from src/ in tests, dist/ otherwise). */
export const SERVICE_ROOT = join(__dirname, '..');
