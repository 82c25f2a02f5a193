import { type RunningGateway, startGateway, type StartGatewayOptions } from '../../src/index';
import { memoryLogger, writeKongFile } from './gateway.fixture';
import type { TestUpstream } from './upstream.server';

// The gateway the telemetry specs start: an api with a read route and a rate-limited one, and the
// opentelemetry and prometheus plugins (or the plugins given).
const kongYml = (plugins: string): string => `
_format_version: "3.0"
services:
  - name: api
    url: http://api:3001
    routes:
      - name: api-read
        paths: [/api/things, /api/other]
        methods: [GET]
        strip_path: false
      - name: api
        paths: [/api]
        strip_path: false
        plugins:
          - name: rate-limiting
            config: { hour: 1, policy: local, limit_by: ip }
plugins:
  - name: correlation-id
    config: { header_name: Kong-Request-ID, generator: uuid#counter, echo_downstream: true }
${plugins}`;

export const TELEMETRY = `
  - name: opentelemetry
    config:
      traces_endpoint: http://otel-collector:4318/v1/traces
      resource_attributes: { deployment.environment.name: test }
      propagation: { extract: [w3c], inject: [w3c], default_format: w3c }
  - name: prometheus
    config: { status_code_metrics: true, latency_metrics: true, bandwidth_metrics: true }
`;

export interface Started {
  gateway: RunningGateway;
  lines: Record<string, unknown>[];
  close(): Promise<void>;
}

export async function start(
  upstream: TestUpstream,
  options: Partial<StartGatewayOptions> = {},
  plugins = TELEMETRY,
): Promise<Started> {
  const file = writeKongFile(kongYml(plugins));
  const { logger, lines } = memoryLogger();
  const gateway = await startGateway({
    configPath: file.path,
    port: 0,
    host: '127.0.0.1',
    upstreams: { api: upstream.address },
    logger,
    telemetryEnv: {},
    ...options,
  });
  return {
    gateway,
    lines,
    close: async () => {
      await gateway.close();
      file.remove();
    },
  };
}
