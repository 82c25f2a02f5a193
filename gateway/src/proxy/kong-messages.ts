/** Kong's own texts for the answers the gateway gives without reaching a service. */
export const KONG_MESSAGES = {
  noRoute: 'no Route matched with those values',
  invalidUpstreamResponse: 'An invalid response was received from the upstream server',
  nameResolutionFailed: 'name resolution failed',
  upstreamTimeout: 'The upstream server is timing out',
  /** No target of the upstream is healthy (or the healthy weight is below its threshold). */
  noPeer: 'failure to get a peer from the ring-balancer',
  /** A retry found no healthy target left (Kong's 503 page). */
  upstreamUnavailable: 'The upstream server is currently unavailable',
  badRequest: 'Bad request',
} as const;

// undici's codes for a connect or read timeout, and the OS's.
const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);
const NAME_RESOLUTION_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME']);

/** Whether the service's host name did not resolve (Kong answers before trying any target). */
export function isNameResolutionFailure(error: NodeJS.ErrnoException): boolean {
  return NAME_RESOLUTION_CODES.has(error.code ?? '');
}

/** Whether the request to a service failed by waiting too long (connect_timeout or read_timeout). */
export function isUpstreamTimeout(error: NodeJS.ErrnoException): boolean {
  return TIMEOUT_CODES.has(error.code ?? '');
}

/** The status and message Kong answers with when the request to a service fails. */
export function upstreamFailure(error: NodeJS.ErrnoException): { status: number; message: string } {
  if (isUpstreamTimeout(error)) return { status: 504, message: KONG_MESSAGES.upstreamTimeout };
  if (NAME_RESOLUTION_CODES.has(error.code ?? '')) {
    return { status: 503, message: KONG_MESSAGES.nameResolutionFailed };
  }
  // Refused, reset, unreachable, or an unparsable answer: Kong reports all of them as 502.
  return { status: 502, message: KONG_MESSAGES.invalidUpstreamResponse };
}
