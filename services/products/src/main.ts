// The OpenTelemetry SDK starts first: it instruments Nest, Fastify and the database driver as they load.
import { startTelemetry } from '@shop/service-kit/telemetry';
startTelemetry('products');

import { runService } from '@shop/service-kit';
import { AppModule } from './app.module';
import { productsConfigSchema } from './config/products.config';

runService('products', productsConfigSchema, (context) => AppModule.register(context));
