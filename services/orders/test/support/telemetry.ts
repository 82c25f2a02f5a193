// Imported first by the metrics test: the SDK starts before Nest and the database driver load, as
// main.ts does in the service. No exporter: spans are ids only, metrics are real.
import { startTelemetry } from '@shop/service-kit/telemetry';

export const telemetry = startTelemetry('orders', { env: {} });
