import { Controller, Get, HttpCode, Inject, ServiceUnavailableException } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Connection } from 'mongoose';
import type { NatsConnection } from 'nats';
import { FeatureFlags } from '../flags/feature-flags';
import { NATS_CONNECTION, SERVICE_CONTEXT, type ServiceContext } from '../service-context';
import { within } from '../util/time-limits';

type CheckState = 'up' | 'down';

/** Liveness says the process answers; readiness says it can do its work (database and broker reachable). */
// Probes for the orchestrator, not reached through the gateway: left out of the API documents.
@ApiExcludeController()
@Controller('health')
export class HealthController {
  constructor(
    @InjectConnection() private readonly mongo: Connection,
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    @Inject(SERVICE_CONTEXT) private readonly context: ServiceContext,
    private readonly flags: FeatureFlags,
  ) {}

  @Get('live')
  @HttpCode(200)
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready(): Promise<{ status: 'ok'; checks: Record<string, CheckState> }> {
    const [mongo, nats, failing] = await Promise.all([
      this.checkMongo(),
      this.checkNats(),
      this.flags.string('readinessProbeFailure'),
    ]);
    const checks = { mongo, nats };
    if (mongo === 'down' || nats === 'down') {
      throw new ServiceUnavailableException({ message: 'Not ready', checks });
    }
    // The fault flag `readinessProbeFailure` names this service: not ready on purpose, and the answer says so.
    if (failing === this.context.name) {
      throw new ServiceUnavailableException(
        `Not ready: the fault flag readinessProbeFailure names ${failing}`,
      );
    }
    return { status: 'ok', checks };
  }

  private async checkMongo(): Promise<CheckState> {
    const db = this.mongo.db;
    if (this.mongo.readyState !== 1 || !db) return 'down';
    return within(1_000, db.command({ ping: 1 })).then(
      () => 'up',
      () => 'down',
    );
  }

  private async checkNats(): Promise<CheckState> {
    if (this.nats.isClosed()) return 'down';
    return within(1_000, this.nats.flush()).then(
      () => 'up',
      () => 'down',
    );
  }
}
