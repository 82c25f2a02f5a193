import { mongo } from 'mongoose';
import { describe, expect, it } from 'vitest';
import { MAX_DB_STATEMENT_LENGTH, serializeDbStatement } from './db-statement';

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
