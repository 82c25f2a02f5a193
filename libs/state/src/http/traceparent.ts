// A W3C trace context for each API call, so the gateway's span (and everything behind it) joins one
// trace that starts at the browser's call. A few bytes instead of the OpenTelemetry web SDK: the first
// screen's byte budget (docs/performance.md) has no room for it, and the browser records no spans.
//
// This module stands alone (no imports): prefetch.ts, which the shell's entry bundles before anything
// is shared, uses it too.

/** The request header that carries the trace context. */
export const TRACEPARENT_HEADER = 'traceparent';

function randomHex(bytes: number): string {
  let hex = '';
  // An all-zero id is invalid (W3C Trace Context §3.2.2.3, §3.2.2.4): draw again.
  while (!/[1-9a-f]/.test(hex)) {
    hex = Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (byte) =>
      byte.toString(16).padStart(2, '0'),
    ).join('');
  }
  return hex;
}

/** A fresh `traceparent`: version 00, a random 16-byte trace id, a random 8-byte span id, sampled. */
export function newTraceparent(): string {
  return `00-${randomHex(16)}-${randomHex(8)}-01`;
}
