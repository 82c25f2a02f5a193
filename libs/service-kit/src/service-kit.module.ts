import { type DynamicModule, Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { MongooseModule, getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import type { NatsConnection } from 'nats';
import { JetStreamEvents } from './events/jetstream-events';
import { ProcessedEvents } from './events/processed-events';
import { FeatureFlags, parseFlagSource } from './flags/feature-flags';
import { HealthController } from './health/health.controller';
import { connectNats } from './nats/nats-connection';
import { MetricsListener } from './telemetry/metrics-listener';
import { telemetryState } from './telemetry/telemetry-state';
import { waitAtMost } from './util/time-limits';
import { NATS_CONNECTION, SERVICE_CONTEXT, type ServiceContext } from './service-context';

@Global()
@Module({})
export class ServiceKitModule implements OnApplicationShutdown {
  constructor(
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    private readonly flags: FeatureFlags,
  ) {}

  /** Database, broker, events, health and the metrics listener for one service, wired from its context. */
  static forRoot(context: ServiceContext): DynamicModule {
    return {
      module: ServiceKitModule,
      imports: [
        MongooseModule.forRoot(context.config.MONGO_URL, {
          serverSelectionTimeoutMS: 5_000,
          // Indexes are declared in schemas and must exist before the first query relies on them.
          autoIndex: true,
        }),
      ],
      controllers: [HealthController],
      providers: [
        { provide: SERVICE_CONTEXT, useValue: context },
        MetricsListener,
        {
          provide: FeatureFlags,
          useFactory: () => {
            const source = context.config.FLAGS_SOURCE;
            return new FeatureFlags(
              context.name,
              source ? parseFlagSource(source) : undefined,
              context.logger,
            );
          },
        },
        {
          provide: NATS_CONNECTION,
          useFactory: () => connectNats(context.config.NATS_URL, context.name, context.logger),
        },
        {
          provide: JetStreamEvents,
          useFactory: (nats: NatsConnection) =>
            new JetStreamEvents(nats, context.logger, { replicas: context.config.NATS_STREAM_REPLICAS }),
          inject: [NATS_CONNECTION],
        },
        {
          provide: ProcessedEvents,
          useFactory: (connection: Connection) => new ProcessedEvents(connection),
          inject: [getConnectionToken()],
        },
      ],
      exports: [
        SERVICE_CONTEXT,
        NATS_CONNECTION,
        JetStreamEvents,
        ProcessedEvents,
        MetricsListener,
        FeatureFlags,
      ],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.nats.isClosed()) await this.nats.drain().catch(() => this.nats.close());
    await waitAtMost(1_000, this.flags.close());
    // The process exits right after: the last requests' spans leave now or never.
    await waitAtMost(2_000, telemetryState.flush?.());
  }
}
