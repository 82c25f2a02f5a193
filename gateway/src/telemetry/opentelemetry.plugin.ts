import { z } from 'zod';

const NOT_IMPLEMENTED = 'is not implemented by the local gateway';

/**
 * Kong 3.9's `opentelemetry` plugin config, limited to what the local gateway does: W3C trace context
 * in and out, one server span per request, OTLP traces (no logs endpoint, no other header formats).
 */
export const openTelemetryConfigSchema = z.strictObject({
  // Kong sends here; the local gateway sends to OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT instead, and
  // nowhere when that is unset (the file names the cluster's collector, as it names services).
  traces_endpoint: z.url({ protocol: /^https?$/, error: 'traces_endpoint must be an http(s) URL' }),
  resource_attributes: z.record(z.string().min(1), z.string().min(1)).default({}),
  sampling_rate: z.number().min(0).max(1).optional(),
  propagation: z
    .strictObject({
      extract: z
        .array(
          z.literal('w3c', {
            error: (issue) => `extract format ${JSON.stringify(issue.input)} ${NOT_IMPLEMENTED} (w3c)`,
          }),
        )
        .optional(),
      inject: z
        .array(
          z.enum(['w3c', 'preserve'], {
            error: (issue) =>
              `inject format ${JSON.stringify(issue.input)} ${NOT_IMPLEMENTED} (w3c, preserve)`,
          }),
        )
        .optional(),
      default_format: z.literal('w3c', {
        error: (issue) => `default_format ${JSON.stringify(issue.input)} ${NOT_IMPLEMENTED} (w3c)`,
      }),
      clear: z.array(z.string().min(1)).optional(),
    })
    .default({ default_format: 'w3c' }),
});
export type OpenTelemetryConfig = z.infer<typeof openTelemetryConfigSchema>;

/** Runtime of the `opentelemetry` plugin: what the request tracer reads of its config. */
export class OpenTelemetryPlugin {
  /** Whether an incoming `traceparent` is continued (Kong extracts W3C unless `extract` leaves it out). */
  readonly extract: boolean;
  /** Whether the upstream request gets the gateway span's `traceparent`. */
  readonly inject: boolean;
  /** Request headers removed after extraction (`propagation.clear`), lower-case. */
  readonly clear: readonly string[];

  constructor(readonly config: OpenTelemetryConfig) {
    const { extract, inject, clear } = config.propagation;
    // Without `extract`/`inject`, Kong falls back to the deprecated header_type's default, `preserve`:
    // extract what came in, inject the same format (W3C, the only one here, or default_format).
    this.extract = extract === undefined || extract.includes('w3c');
    this.inject = inject === undefined || inject.length > 0;
    this.clear = (clear ?? []).map((name) => name.toLowerCase());
  }
}
