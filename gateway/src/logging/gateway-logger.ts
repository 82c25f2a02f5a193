import { type Logger, pino } from 'pino';

/**
 * How long an access line may wait in memory, at the most, before it is written: what a `kill -9` of the
 * gateway can lose (a clean stop writes everything, `flushGatewayLog`). nginx's `access_log ... buffer=
 * flush=`, which Kong's access log is, makes the same trade.
 */
export const ACCESS_LOG_FLUSH_MS = 1000;
/** Lines are written once this many bytes have gathered (about 15 access lines), or at the flush above. */
export const ACCESS_LOG_BUFFER_BYTES = 4096;

/**
 * Where the gateway's JSON lines go (stdout, or a file for the local stack): written asynchronously in
 * batches. One access line per request written on its own was about a tenth of the hop's CPU on a cached
 * read, most of it the write itself (docs/performance.md, "Catalogue reads").
 */
export function gatewayLogDestination(dest: number | string = 1): ReturnType<typeof pino.destination> {
  return pino.destination({
    dest,
    sync: false,
    minLength: ACCESS_LOG_BUFFER_BYTES,
    periodicFlush: ACCESS_LOG_FLUSH_MS,
  });
}

/** The gateway's JSON logger (one object per line). Stop with `flushGatewayLog` so no line is lost. */
export function createGatewayLogger(level = 'info', dest: number | string = 1): Logger {
  return pino(
    { level, base: { service: 'gateway' }, timestamp: pino.stdTimeFunctions.isoTime },
    gatewayLogDestination(dest),
  );
}

/** Writes the lines still gathered in memory; resolves once they are out. */
export function flushGatewayLog(logger: Logger): Promise<void> {
  return new Promise((resolve) => logger.flush(() => resolve()));
}
