import { type DynamicModule, Module } from '@nestjs/common';
import { Clock } from './clock';

/**
 * The one clock of the service, for every feature that judges times (attempt windows, reset codes):
 * registered once by the AppModule, global so that a test's clock is the clock everywhere.
 */
@Module({})
export class ClockModule {
  static register(clock: Clock = new Clock()): DynamicModule {
    return {
      module: ClockModule,
      global: true,
      providers: [{ provide: Clock, useValue: clock }],
      exports: [Clock],
    };
  }
}
