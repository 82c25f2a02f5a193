// Imported first by the no-exporter telemetry test: the SDK as a service starts it when no OTLP
// endpoint is set (nothing recorded, nothing exported), before Nest, Fastify and the driver load.
import { startTelemetry } from '../../src/telemetry/start-telemetry';

export const telemetry = startTelemetry('things', { env: {} });
