import { join } from 'node:path';
import type { OpenAPIObject } from '@nestjs/swagger';
import { openApiDocument, previewContext } from '@shop/service-kit';
import { AppModule } from './app.module';
import { dataConfigSchema } from './config/data.config';

/** The data API as its controllers and DTOs declare it (OpenAPI 3.1), built without a database or broker. */
export function dataOpenApi(): Promise<OpenAPIObject> {
  return openApiDocument({
    name: 'data',
    description: 'site name, currency, logo.',
    version: '1.0.0',
    module: AppModule.register(previewContext('data', dataConfigSchema)),
  });
}

/** services/data, where openapi.json is committed (this file runs from src/ in tests, dist/ otherwise). */
export const SERVICE_ROOT = join(__dirname, '..');
