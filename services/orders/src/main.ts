// The OpenTelemetry SDK starts first: it instruments Nest, Fastify and the database driver as they load.
import { startTelemetry } from '@shop/service-kit/telemetry';
startTelemetry('orders');

import { runService } from '@shop/service-kit';
import { AppModule } from './app.module';
import { ordersConfigSchema } from './config/orders.config';

runService('orders', ordersConfigSchema, (context) => AppModule.register(context));
