import type { IncomingHttpHeaders } from 'node:http';
import { z } from 'zod';
import { appendHeader, type ResponseHeaders, setHeader } from './response-headers';

const CORS_METHODS = [
  'GET',
  'HEAD',
  'PUT',
  'PATCH',
  'POST',
  'DELETE',
  'OPTIONS',
  'TRACE',
  'CONNECT',
] as const;
const PLAIN_ORIGIN = /^[A-Za-z0-9.:/-]+$/;

/** Kong's `cors` config; origins must be exact (Kong's regex origins are not implemented). */
export const corsConfigSchema = z.strictObject({
  origins: z
    .array(
      z.string().refine((origin) => origin === '*' || PLAIN_ORIGIN.test(origin), {
        message: 'regex origins are not implemented by the local gateway; list exact origins',
      }),
    )
    .optional(),
  headers: z.array(z.string().min(1)).optional(),
  exposed_headers: z.array(z.string().min(1)).optional(),
  methods: z.array(z.enum(CORS_METHODS)).optional(),
  max_age: z.number().min(0).optional(),
  credentials: z.boolean().default(false),
  private_network: z.boolean().default(false),
  preflight_continue: z.boolean().default(false),
  allow_origin_absent: z.boolean().default(true),
});
export type CorsConfig = z.infer<typeof corsConfigSchema>;

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** `scheme://host[:port]` with the default port dropped, as Kong compares origins. */
function normalizeOrigin(origin: string): string {
  try {
    const url = new URL(origin);
    if (!url.host) return origin;
    return `${url.protocol}//${url.host}`;
  } catch {
    return origin;
  }
}

/** Runtime of the `cors` plugin: answers preflights at the edge and decorates responses. */
export class CorsPlugin {
  private readonly origins: readonly string[];
  private readonly allowAll: boolean;
  private readonly normalizedOrigins: ReadonlySet<string>;

  constructor(private readonly config: CorsConfig) {
    this.origins = config.origins ?? [];
    this.allowAll = this.origins.length === 0 || this.origins.includes('*');
    this.normalizedOrigins = new Set(this.origins.map(normalizeOrigin));
  }

  /** A preflight is an OPTIONS request carrying both `Origin` and `Access-Control-Request-Method`. */
  isPreflight(method: string, headers: IncomingHttpHeaders): boolean {
    return (
      method === 'OPTIONS' && Boolean(headers.origin) && Boolean(headers['access-control-request-method'])
    );
  }

  /** Whether preflights go to the upstream instead of being answered here. */
  get preflightContinue(): boolean {
    return this.config.preflight_continue;
  }

  /** Headers of the 200 answer to a preflight. */
  preflightHeaders(headers: IncomingHttpHeaders): ResponseHeaders {
    const out: ResponseHeaders = {};
    const origin = firstValue(headers.origin);
    const allowAll = this.configureOrigin(out, origin, false);
    this.configureCredentials(out, allowAll, origin, false);
    if (this.config.headers && this.config.headers.length > 0) {
      setHeader(out, 'Access-Control-Allow-Headers', this.config.headers.join(','));
    } else {
      const requested = firstValue(headers['access-control-request-headers']);
      if (requested) setHeader(out, 'Access-Control-Allow-Headers', requested);
    }
    setHeader(out, 'Access-Control-Allow-Methods', (this.config.methods ?? CORS_METHODS).join(','));
    if (this.config.max_age !== undefined)
      setHeader(out, 'Access-Control-Max-Age', String(this.config.max_age));
    if (this.config.private_network && headers['access-control-request-private-network'] === 'true') {
      setHeader(out, 'Access-Control-Allow-Private-Network', 'true');
    }
    return out;
  }

  /** Header-filter phase for every other response (proxied or produced by the gateway). */
  headerFilter(requestHeaders: IncomingHttpHeaders, responseHeaders: ResponseHeaders): void {
    const origin = firstValue(requestHeaders.origin);
    if (!origin && !this.config.allow_origin_absent) return;
    const allowAll = this.configureOrigin(responseHeaders, origin, true);
    this.configureCredentials(responseHeaders, allowAll, origin, true);
    if (this.config.exposed_headers && this.config.exposed_headers.length > 0) {
      setHeader(responseHeaders, 'Access-Control-Expose-Headers', this.config.exposed_headers.join(','));
    }
  }

  /** Sets `Access-Control-Allow-Origin`; true when every origin is allowed (`*`). */
  private configureOrigin(out: ResponseHeaders, origin: string | undefined, append: boolean): boolean {
    if (this.allowAll) {
      setHeader(out, 'Access-Control-Allow-Origin', '*');
      return true;
    }
    // Vary even when refusing, so caches keep per-origin answers apart.
    this.vary(out, append);
    if (this.origins.length === 1) {
      setHeader(out, 'Access-Control-Allow-Origin', this.origins[0] ?? '');
      return false;
    }
    if (origin) {
      const normalized = normalizeOrigin(origin);
      if (this.normalizedOrigins.has(normalized)) {
        setHeader(out, 'Access-Control-Allow-Origin', normalized);
        return false;
      }
    }
    delete out['access-control-allow-origin'];
    return false;
  }

  private configureCredentials(
    out: ResponseHeaders,
    allowAll: boolean,
    origin: string | undefined,
    append: boolean,
  ): void {
    if (!this.config.credentials) return;
    if (!allowAll) {
      setHeader(out, 'Access-Control-Allow-Credentials', 'true');
      return;
    }
    // A credentialed response may not say `*`, so reflect the caller's origin instead.
    if (origin) {
      this.vary(out, append);
      setHeader(out, 'Access-Control-Allow-Origin', origin);
      setHeader(out, 'Access-Control-Allow-Credentials', 'true');
    }
  }

  private vary(out: ResponseHeaders, append: boolean): void {
    if (append) appendHeader(out, 'Vary', 'Origin');
    else setHeader(out, 'Vary', 'Origin');
  }
}
