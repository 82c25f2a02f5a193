import type { IncomingMessage } from 'node:http';

/** How long and how much of a refused request body the gateway reads away before it closes. */
export interface DrainLimits {
  /** Body bytes read at most. */
  maxBytes: number;
  /** Time spent at most (nginx's `lingering_time`, 30 s). */
  maxMs: number;
  /** Time waited at most for the next piece of body (nginx's `lingering_timeout`, 5 s). */
  idleMs: number;
}

/**
 * nginx's defaults (and so Kong's), with a byte bound on top: 64 MiB is a few seconds of a fast
 * client, more than any body the routes take, and little for the gateway to read and drop.
 */
export const LINGERING_CLOSE: DrainLimits = { maxBytes: 64 * 2 ** 20, maxMs: 30_000, idleMs: 5_000 };

/**
 * Reads the rest of a refused request body away and drops it, then calls `done` once: when the body
 * has ended, when the client has gone, or past the limits. This is nginx's lingering close: a
 * connection closed while the client is still sending has unread bytes, on which the kernel answers
 * with a reset, and a reset can destroy the answer in the client's buffers before it was read
 * (EPIPE, ECONNRESET instead of the 413). Reading the body to its end first lets every client read
 * the answer; past the limits the gateway closes anyway, as nginx does.
 */
export function drainRequest(req: IncomingMessage, limits: DrainLimits, done: () => void): void {
  if (req.readableEnded || req.destroyed) {
    done();
    return;
  }
  let drained = 0;
  const idle = setTimeout(finish, limits.idleMs);
  const deadline = setTimeout(finish, limits.maxMs);
  function onData(chunk: Buffer): void {
    drained += chunk.length;
    if (drained > limits.maxBytes) finish();
    else idle.refresh();
  }
  function finish(): void {
    clearTimeout(idle);
    clearTimeout(deadline);
    req.off('data', onData);
    req.off('end', finish);
    req.off('close', finish);
    req.off('error', finish);
    req.pause();
    done();
  }
  req.on('data', onData);
  req.once('end', finish);
  req.once('close', finish);
  req.once('error', finish);
  req.resume();
}
