import { Transform, type TransformCallback } from 'node:stream';

/**
 * Passes a request body through while counting it; once it grows past `limit` bytes it stops
 * forwarding and calls `onExceeded` once. Used for bodies without Content-Length (chunked), which
 * cannot be judged before they arrive and must not be buffered.
 */
export class BodyLimitStream extends Transform {
  private bytes = 0;
  private exceeded = false;

  constructor(
    private readonly limit: number,
    private readonly onExceeded: () => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.exceeded) {
      callback();
      return;
    }
    this.bytes += chunk.length;
    if (this.bytes > this.limit) {
      this.exceeded = true;
      callback();
      this.onExceeded();
      return;
    }
    callback(null, chunk);
  }
}
