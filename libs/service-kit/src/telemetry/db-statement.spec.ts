import { type Span, TraceFlags, context, trace } from '@opentelemetry/api';
import { StackContextManager } from '@opentelemetry/sdk-trace';
import { mongo } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DB_STATEMENT_LENGTH, dbStatementWhileRecording, serializeDbStatement } from './db-statement';

describe('serializeDbStatement', () => {
  it('keeps the shape of a command and hides every value', () => {
    expect(serializeDbStatement({ filter: { email: 'a@b.c', age: { $gt: 3 } }, limit: 1 })).toBe(
      '{"filter":{"email":"?","age":{"$gt":"?"}},"limit":"?"}',
    );
  });

  it('writes binary data as one value, not one per byte', () => {
    const chunk = Buffer.alloc(255 * 1024, 7);
    expect(serializeDbStatement({ documents: [{ n: 0, data: chunk }] })).toBe(
      '{"documents":[{"n":"?","data":"?"}]}',
    );
    expect(serializeDbStatement({ data: new mongo.Binary(chunk) })).toBe('{"data":"?"}');
  });

  it('cuts a long command and says so', () => {
    const documents = Array.from({ length: 1000 }, (_, n) => ({ n }));
    const text = serializeDbStatement({ documents });
    expect(text.length).toBeLessThanOrEqual(MAX_DB_STATEMENT_LENGTH + 10);
    expect(text.endsWith('…(cut)')).toBe(true);
  });

  it('names a circular reference instead of failing', () => {
    const loop: Record<string, unknown> = { a: 1 };
    loop['self'] = loop;
    expect(serializeDbStatement(loop)).toBe('{"a":"?","self":"[Circular]"}');
  });
});

describe('dbStatementWhileRecording', () => {
  beforeAll(() => {
    context.setGlobalContextManager(new StackContextManager().enable());
  });
  afterAll(() => {
    context.disable();
  });

  const ids = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' };
  const recording = {
    isRecording: () => true,
    spanContext: () => ({ ...ids, traceFlags: TraceFlags.SAMPLED }),
  } as unknown as Span;
  const notRecording = trace.wrapSpanContext({ ...ids, traceFlags: TraceFlags.NONE });
  /** A command that fails the test if anything reads it. */
  const untouchable = {
    get filter(): never {
      throw new Error('the command was read');
    },
  };

  it('serializes the command of a span that will be kept', () => {
    const under = trace.setSpan(context.active(), recording);
    expect(context.with(under, () => dbStatementWhileRecording({ filter: { email: 'a@b.c' } }))).toBe(
      '{"filter":{"email":"?"}}',
    );
  });

  it('reads nothing under a span that is not recording, or none', () => {
    const under = trace.setSpan(context.active(), notRecording);
    expect(context.with(under, () => dbStatementWhileRecording(untouchable))).toBe('');
    expect(dbStatementWhileRecording(untouchable)).toBe('');
  });
});
