import { z } from 'zod';

const UNIT_BYTES = { megabytes: 2 ** 20, kilobytes: 2 ** 10, bytes: 1 } as const;

/** Kong's `request-size-limiting` config (`require_content_length: true` is not implemented). */
export const requestSizeLimitingConfigSchema = z.strictObject({
  allowed_payload_size: z.number().int().positive().default(128),
  size_unit: z.enum(['megabytes', 'kilobytes', 'bytes']).default('megabytes'),
  require_content_length: z
    .literal(false, { error: 'require_content_length: true is not implemented by the local gateway' })
    .default(false),
});
export type RequestSizeLimitingConfig = z.infer<typeof requestSizeLimitingConfigSchema>;

/** Kong's answer text for 413 (and 417 when the client waits for `100 Continue`). */
export const REQUEST_SIZE_LIMIT_MESSAGE = 'Request size limit exceeded';

/** Runtime of the `request-size-limiting` plugin. */
export class RequestSizeLimitingPlugin {
  /** The largest body accepted, in bytes. */
  readonly allowedBytes: number;

  constructor(config: RequestSizeLimitingConfig) {
    this.allowedBytes = config.allowed_payload_size * UNIT_BYTES[config.size_unit];
  }

  /** Whether a body of `bytes` bytes is over the limit. */
  exceeds(bytes: number): boolean {
    return bytes > this.allowedBytes;
  }
}
