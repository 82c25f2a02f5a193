export { startGateway, type RunningGateway, type StartGatewayOptions } from './proxy/gateway.server';
export { GatewayConfigError, loadKongConfig, parseKongConfig } from './config/kong-config.loader';
export type { GatewayConfig, GatewayRoute, GatewayService } from './config/gateway-config';
export { GatewayEnvError, parseGatewayEnv, parseUpstreamList, type GatewayEnv } from './config/gateway-env';
export { DEFAULT_CONFIG_PATH } from './default-config-path';
export { gatewayLogDestination } from './logging/gateway-logger';
