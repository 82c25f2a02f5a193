// Imported first by the telemetry tests: the SDK must start before Nest, Fastify and the MongoDB
// driver load, as main.ts does it in a service. Finished spans go to the SDK's in-memory exporter
// (a test exporter of the SDK itself); everything they describe (HTTP, NATS, database) is real.
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { startTelemetry } from '../../src/telemetry/start-telemetry';

export const finishedSpans = new InMemorySpanExporter();

export const telemetry = startTelemetry('things', {
  env: {},
  spanProcessors: [new SimpleSpanProcessor({ exporter: finishedSpans })],
});
