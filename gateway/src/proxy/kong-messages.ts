/** Kong's own texts for the answers the gateway gives without reaching a service. */
export const KONG_MESSAGES = {
  noRoute: 'no Route matched with those values',
  invalidUpstreamResponse: 'An invalid response was received from the upstream server',
  nameResolutionFailed: 'name resolution failed',
  upstreamTimeout: 'The upstream server is timing out',
  badRequest: 'Bad request',
} as const;

/** The status and message Kong answers with when the connection to a service fails. */
export function upstreamFailure(
  error: NodeJS.ErrnoException,
  timedOut: boolean,
): { status: number; message: string } {
  if (timedOut || error.code === 'ECONNECT_TIMEOUT' || error.code === 'ETIMEDOUT') {
    return { status: 504, message: KONG_MESSAGES.upstreamTimeout };
  }
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN' || error.code === 'EAI_NONAME') {
    return { status: 503, message: KONG_MESSAGES.nameResolutionFailed };
  }
  // Refused, reset, unreachable, or an unparsable answer: Kong reports all of them as 502.
  return { status: 502, message: KONG_MESSAGES.invalidUpstreamResponse };
}
