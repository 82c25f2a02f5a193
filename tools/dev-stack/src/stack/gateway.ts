import { join } from 'node:path';
import { gatewayLogDestination, startGateway } from '@shop/gateway';
import { repoRoot } from '@shop/infra';
import pino from 'pino';
import type { Parts } from './parts.js';
import { telemetryEnv } from './services.js';

export interface StackGatewayOptions {
  parts: Parts;
  port: number;
  /** 0.0.0.0 for npm start (the shop on the machine's address), loopback for tests. */
  host: string;
  /** Where each upstream host is: one address per replica (gateway/README, "local replicas"). */
  upstreams: Record<string, string[]>;
  /** The routing table to serve (gateway/kong.yml). */
  configPath?: string;
  rateLimitFactor: number;
  statusPort: number;
  logDir: string;
  otlpEndpoint?: string;
  /** OTEL_* settings over the environment's (StackOptions.telemetryEnv). */
  telemetryEnv?: Record<string, string>;
}

/** The gateway in front of every part, in this process; answers its status listener's address. */
export async function startStackGateway(options: StackGatewayOptions): Promise<{ statusUrl?: string }> {
  const gateway = await startGateway({
    configPath: options.configPath ?? join(repoRoot(), 'gateway', 'kong.yml'),
    port: options.port,
    host: options.host,
    upstreams: options.upstreams,
    rateLimitFactor: options.rateLimitFactor,
    logger: pino(gatewayLogDestination(join(options.logDir, 'gateway.log'))),
    statusPort: options.statusPort,
    telemetryEnv: {
      ...process.env,
      ...telemetryEnv('gateway', options.otlpEndpoint),
      ...options.telemetryEnv,
    },
  });
  options.parts.add('gateway', { stop: () => gateway.close() });
  return { statusUrl: gateway.statusUrl };
}
