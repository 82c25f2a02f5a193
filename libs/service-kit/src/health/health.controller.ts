import { Controller, Get, HttpCode, Inject, ServiceUnavailableException } from '@nestjs/common';
import { InjectConnection } from '@nestjs/mongoose';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Connection } from 'mongoose';
import type { NatsConnection } from 'nats';
import { NATS_CONNECTION } from '../service-context';
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
  ) {}

  @Get('live')
  @HttpCode(200)
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready(): Promise<{ status: 'ok'; checks: Record<string, CheckState> }> {
    const [mongo, nats] = await Promise.all([this.checkMongo(), this.checkNats()]);
    const checks = { mongo, nats };
    if (mongo === 'down' || nats === 'down') {
      throw new ServiceUnavailableException({ message: 'Not ready', checks });
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
