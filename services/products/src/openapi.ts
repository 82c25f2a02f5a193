import { join } from 'node:path';
import type { OpenAPIObject } from '@nestjs/swagger';
import { openApiDocument, previewContext } from '@shop/service-kit';
import { AppModule } from './app.module';
import { productsConfigSchema } from './config/products.config';

/** The products API as its controllers and DTOs declare it (OpenAPI 3.1), built without a database or broker. */
export function productsOpenApi(): Promise<OpenAPIObject> {
  return openApiDocument({
    name: 'products',
    description: 'products, categories, demo catalogue.',
    version: '1.0.0',
    module: AppModule.register(previewContext('products', productsConfigSchema)),
  });
}

/** services/products, where openapi.json is committed (this file runs from src/ in tests, dist/ otherwise). */
export const SERVICE_ROOT = join(__dirname, '..');
