import { describe, expect, it, vi } from 'vitest';
import { newTraceparent } from './traceparent';

const FORMAT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

describe('newTraceparent', () => {
  it('makes a sampled version-00 context with a 16-byte trace id and an 8-byte span id', () => {
    const value = newTraceparent();
    expect(value).toMatch(FORMAT);
  });

  it('starts a new trace each time', () => {
    const values = Array.from({ length: 50 }, newTraceparent);
    expect(new Set(values.map((value) => FORMAT.exec(value)![1])).size).toBe(50);
    expect(new Set(values.map((value) => FORMAT.exec(value)![2])).size).toBe(50);
  });

  it('never sends an all-zero id, which a receiver must reject', () => {
    const real = crypto.getRandomValues.bind(crypto);
    let calls = 0;
    const spy = vi
      .spyOn(crypto, 'getRandomValues')
      .mockImplementation(<T extends ArrayBufferView | null>(array: T): T => {
        calls += 1;
        // The first draw of each id is all zeros.
        return calls === 1 || calls === 3 ? array : real(array as never);
      });
    try {
      const [, traceId, spanId] = FORMAT.exec(newTraceparent())!;
      expect(traceId).not.toMatch(/^0+$/);
      expect(spanId).not.toMatch(/^0+$/);
      expect(calls).toBe(4);
    } finally {
      spy.mockRestore();
    }
  });
});
