import { trace } from '@opentelemetry/api';

/** The longest `db.query.text` a MongoDB span carries; past it the text is cut and says so. */
export const MAX_DB_STATEMENT_LENGTH = 1024;

function isBinary(value: object): boolean {
  if (ArrayBuffer.isView(value)) return true;
  // What JSON.stringify hands the replacer for a Buffer (its toJSON ran first) and for BSON's Binary.
  const tagged = value as { type?: unknown; data?: unknown; _bsontype?: unknown };
  return (tagged.type === 'Buffer' && Array.isArray(tagged.data)) || tagged._bsontype === 'Binary';
}

/**
 * The MongoDB instrumentation's `db.query.text`: the command's shape with every value replaced by
 * `?`, as its own serializer does, except that binary data counts as one value (the default walks a
 * Buffer byte by byte: a 255 KB GridFS chunk became a megabyte of `?,` on every media write, built
 * even while no span is recorded), and the text stops at {@link MAX_DB_STATEMENT_LENGTH}.
 */
export function serializeDbStatement(command: unknown): string {
  const seen = new WeakSet<object>();
  const text = JSON.stringify(command, (_key, value: unknown) => {
    if (typeof value !== 'object' || value === null) return '?';
    if (isBinary(value)) return '?';
    if (seen.has(value)) return '[Circular]';
    seen.add(value);
    return value;
  });
  if (text === undefined) return '?';
  return text.length > MAX_DB_STATEMENT_LENGTH ? `${text.slice(0, MAX_DB_STATEMENT_LENGTH)}…(cut)` : text;
}

/**
 * The serializer the MongoDB instrumentation is given: the statement only for a command whose span
 * will be kept. The instrumentation builds a span's attributes before the sampler decides, so a
 * command under a span that is not recording (no exporter, or a trace sampling left out) would
 * otherwise be serialized for nothing. Its span is a child of that one (the instrumentation makes
 * none without a parent), which the parent-based samplers record only when the parent is.
 */
export function dbStatementWhileRecording(command: unknown): string {
  return trace.getActiveSpan()?.isRecording() ? serializeDbStatement(command) : '';
}
