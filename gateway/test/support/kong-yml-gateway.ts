import { DEFAULT_CONFIG_PATH, loadKongConfig } from '../../src/index';
import { startTestGatewayOver, type TestGateway } from './gateway.fixture';
import { startUpstream, type TestUpstream } from './upstream.server';

/**
 * Starts the gateway on the shop's own gateway/kong.yml, each service host of the file answered by the
 * upstream of its name among `given`, else by an echo upstream. Closing the gateway closes them all.
 */
export async function startKongYmlGateway(given: readonly TestUpstream[] = []): Promise<TestGateway> {
  const hosts = new Set(loadKongConfig(DEFAULT_CONFIG_PATH).services.map((service) => service.host));
  const echoes = await Promise.all(
    [...hosts]
      .filter((host) => !given.some((upstream) => upstream.name === host))
      .map((host) => startUpstream(host)),
  );
  return startTestGatewayOver({ path: DEFAULT_CONFIG_PATH }, [...given, ...echoes]);
}
