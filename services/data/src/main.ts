// The OpenTelemetry SDK starts first: it instruments Nest, Fastify and the database driver as they load.
import { startTelemetry } from '@shop/service-kit/telemetry';
startTelemetry('data');

import { runService } from '@shop/service-kit';
import { AppModule } from './app.module';
import { dataConfigSchema } from './config/data.config';

runService('data', dataConfigSchema, (context) => AppModule.register(context));
