import { GatewayConfigError } from './config/kong-config.loader';
import { GatewayEnvError, parseGatewayEnv } from './config/gateway-env';
import { DEFAULT_CONFIG_PATH } from './default-config-path';
import { createGatewayLogger } from './logging/gateway-logger';
import { startGateway } from './proxy/gateway.server';

async function main(): Promise<void> {
  const env = parseGatewayEnv(process.env, DEFAULT_CONFIG_PATH);
  const logger = createGatewayLogger(env.logLevel);
  const gateway = await startGateway({
    configPath: env.configPath,
    port: env.port,
    statusPort: env.statusPort,
    host: env.host,
    upstreams: env.upstreams,
    rateLimitFactor: env.rateLimitFactor,
    logger,
  });
  const stop = (signal: NodeJS.Signals): void => {
    logger.info({ signal }, 'gateway stopping');
    // Closing writes the log lines still in memory.
    void gateway.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  // Start-up refusals are meant for a person reading the terminal, so plain text on stderr.
  const known = error instanceof GatewayConfigError || error instanceof GatewayEnvError;
  const text = error instanceof Error ? error.message : String(error);
  process.stderr.write(`gateway: refused to start: ${text}\n`);
  if (!known && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
