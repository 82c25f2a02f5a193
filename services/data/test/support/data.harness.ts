import {
  type ServiceUnderTest,
  type ServiceUnderTestOptions,
  startServiceUnderTest,
} from '@shop/service-kit/testing';
import { AppModule } from '../../src/app.module';
import { type DataConfig, dataConfigSchema } from '../../src/config/data.config';

/** The data service under test: `call` through the gateway, `publish` as another service would, `close`. */
export type DataHarness = ServiceUnderTest<DataConfig>;

/**
 * The data service on a fresh database behind the real gateway (kong.yml), with what a test adds: its
 * environment, the event types to collect, a logger.
 */
export function startData(
  options: Pick<ServiceUnderTestOptions<typeof dataConfigSchema>, 'env' | 'events' | 'logger'> = {},
): Promise<DataHarness> {
  return startServiceUnderTest({
    name: 'data',
    configSchema: dataConfigSchema,
    module: (context) => AppModule.register(context),
    ...options,
  });
}
