import { type Logger, pino } from 'pino';

/**
 * The gateway's JSON logger (stdout, one object per line). It writes one access line per request, so
 * lines are written asynchronously (batched per tick): a synchronous write per request was a large
 * share of the hop's own cost. Call `logger.flush()` before exiting.
 */
export function createGatewayLogger(level = 'info'): Logger {
  return pino(
    { level, base: { service: 'gateway' }, timestamp: pino.stdTimeFunctions.isoTime },
    pino.destination({ dest: 1, sync: false }),
  );
}
