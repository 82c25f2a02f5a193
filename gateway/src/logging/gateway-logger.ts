import { type Logger, pino } from 'pino';

/** The gateway's JSON logger (stdout, one object per line). */
export function createGatewayLogger(level = 'info'): Logger {
  return pino({ level, base: { service: 'gateway' }, timestamp: pino.stdTimeFunctions.isoTime });
}
