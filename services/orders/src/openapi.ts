import { join } from 'node:path';
import { type OpenAPIObject } from '@nestjs/swagger';
import { openApiDocument, previewContext } from '@shop/service-kit';
import { AppModule } from './app.module';
import { ordersConfigSchema } from './config/orders.config';

/** The orders API as its controllers and DTOs declare it (OpenAPI 3.1), built without a database or broker. */
export function ordersOpenApi(): Promise<OpenAPIObject> {
  return openApiDocument({
    name: 'orders',
    description: 'Checkout (server-side pricing, stock reservation), order reads and state transitions.',
    version: '1.0.0',
    module: AppModule.register(previewContext('orders', ordersConfigSchema)),
  });
}

/** services/orders, where openapi.json is committed (this file runs from src/ in tests, dist/ otherwise). */
export const SERVICE_ROOT = join(__dirname, '..');
