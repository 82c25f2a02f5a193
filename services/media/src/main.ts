// The OpenTelemetry SDK starts first: it instruments Nest, Fastify and the database driver as they load.
import { startTelemetry } from '@shop/service-kit/telemetry';
startTelemetry('media');

import { runService } from '@shop/service-kit';
import { AppModule } from './app.module';
import { mediaConfigSchema } from './config/media.config';

runService('media', mediaConfigSchema, (context) => AppModule.register(context));
