import { join } from 'node:path';
import { previewContext } from '@shop/service-kit';
import { checkOpenApiDocument } from '@shop/service-kit/openapi-check';
import { it } from 'vitest';
import { AppModule } from './app.module';
import { ordersConfigSchema } from './config/orders.config';

it('services/orders/openapi.json is the document the code declares', () =>
  checkOpenApiDocument(
    join(__dirname, '..'),
    AppModule.register(previewContext('orders', ordersConfigSchema)),
  ));
