import { Writable } from 'node:stream';
import pino, { type Logger } from 'pino';
import { loggerOptions } from '../src/logging/logger';

/** A service's logger as the kit makes it, writing into `lines` (each JSON line parsed) instead of stdout. */
export function capturedLogger(service: string): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const capture = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino(loggerOptions(service, 'info'), capture), lines };
}
