import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { z } from 'zod';
import { type ResponseHeaders, setHeader } from './response-headers';

/** Kong's `correlation-id` config, limited to the generators implemented here. */
export const correlationIdConfigSchema = z.strictObject({
  header_name: z.string().min(1).default('Kong-Request-ID'),
  generator: z
    .enum(['uuid', 'uuid#counter'], {
      error: (issue) =>
        `generator ${JSON.stringify(issue.input)} is not implemented by the local gateway (uuid, uuid#counter)`,
    })
    .default('uuid#counter'),
  echo_downstream: z.boolean().default(false),
});
export type CorrelationIdConfig = z.infer<typeof correlationIdConfigSchema>;

// Like Kong's per-worker seed: one UUID per process, then a counter.
const processUuid = randomUUID();
let counter = 0;

/** Runtime of the `correlation-id` plugin. */
export class CorrelationIdPlugin {
  private readonly requestKey: string;

  constructor(private readonly config: CorrelationIdConfig) {
    this.requestKey = config.header_name.toLowerCase();
  }

  /** Access phase: keeps a non-empty incoming id, otherwise generates one and adds it to the request. */
  access(requestHeaders: IncomingHttpHeaders): string {
    const incoming = requestHeaders[this.requestKey];
    const current = Array.isArray(incoming) ? incoming[0] : incoming;
    if (current) return current;
    const generated = this.generate();
    requestHeaders[this.requestKey] = generated;
    return generated;
  }

  /** Header-filter phase: echoes the id to the client when configured to. */
  headerFilter(id: string, responseHeaders: ResponseHeaders): void {
    if (this.config.echo_downstream) setHeader(responseHeaders, this.config.header_name, id);
  }

  private generate(): string {
    if (this.config.generator === 'uuid') return randomUUID();
    counter += 1;
    return `${processUuid}#${counter}`;
  }
}
