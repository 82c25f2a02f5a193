import { z } from 'zod';

const notImplemented = (option: string) =>
  z.literal(false, { error: `${option}: true is not implemented by the local gateway` }).default(false);

/**
 * Kong 3.9's `prometheus` plugin config. The local gateway has no consumers (so `per_consumer` only
 * fills the `consumer` label with "") and no AI proxy.
 */
export const prometheusConfigSchema = z.strictObject({
  per_consumer: z.boolean().default(false),
  status_code_metrics: z.boolean().default(false),
  latency_metrics: z.boolean().default(false),
  bandwidth_metrics: z.boolean().default(false),
  upstream_health_metrics: z.boolean().default(false),
  ai_metrics: notImplemented('ai_metrics'),
});
export type PrometheusConfig = z.infer<typeof prometheusConfigSchema>;

/** Runtime of the `prometheus` plugin: which families the log phase records. */
export class PrometheusPlugin {
  constructor(readonly config: PrometheusConfig) {}
}
