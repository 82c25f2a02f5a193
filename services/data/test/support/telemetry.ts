// Imported first by the CSP reports test: the SDK starts before Nest loads, as main.ts does in the
// service, so the violation counter is a real one. No exporter: metrics only.
import { startTelemetry } from '@shop/service-kit/telemetry';

export const telemetry = startTelemetry('data', { env: {} });
