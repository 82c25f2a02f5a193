// The OpenTelemetry SDK starts first: it instruments Nest, Fastify and the database driver as they load.
import { startTelemetry } from '@shop/service-kit/telemetry';
startTelemetry('users');

import { runService } from '@shop/service-kit';
import { AppModule } from './app.module';
import { usersConfigSchema } from './config/users.config';

runService('users', usersConfigSchema, (context) => AppModule.register(context));
