import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { SERVICE_CONTEXT, type ServiceContext } from '@shop/service-kit';
import type { ProductsConfig } from '../config/products.config';
import { StockRecoveryService } from './stock-recovery.service';

/** Runs the reservation recovery pass at start and then at an interval, on every replica. */
@Injectable()
export class ReservationRecoveryScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  constructor(
    private readonly recovery: StockRecoveryService,
    @Inject(SERVICE_CONTEXT) private readonly context: ServiceContext<ProductsConfig>,
  ) {}

  onApplicationBootstrap(): void {
    this.pass();
    this.timer = setInterval(() => this.pass(), this.context.config.RESERVATION_RECOVERY_INTERVAL_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  private pass(): void {
    if (this.running) return;
    this.running = this.recovery
      .recover()
      .catch((error: unknown) => this.context.logger.warn({ err: error }, 'reservation recovery pass failed'))
      .finally(() => {
        this.running = undefined;
      });
  }
}
