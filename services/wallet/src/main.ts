// The OpenTelemetry SDK starts first: it instruments Nest, Fastify and the database driver as they load.
import { startTelemetry } from '@shop/service-kit/telemetry';
startTelemetry('wallet');

import { runService } from '@shop/service-kit';
import { AppModule } from './app.module';
import { walletConfigSchema } from './config/wallet.config';

runService('wallet', walletConfigSchema, (context) => AppModule.register(context));
