import { plainToInstance } from 'class-transformer';
import { describe, expect, it } from 'vitest';
import { QueryBoolean, QueryNumber, QueryText, Trim } from './dto-transforms';

class Query {
  @Trim() name?: unknown;
  @QueryText() q?: unknown;
  @QueryBoolean() paid?: unknown;
  @QueryNumber() page?: unknown;
}

const read = (plain: Record<string, unknown>) => plainToInstance(Query, plain);

describe('DTO transforms', () => {
  it('Trim trims strings and leaves anything else to the validators', () => {
    expect(read({ name: '  Ada  ' }).name).toBe('Ada');
    expect(read({ name: '   ' }).name).toBe('');
    expect(read({ name: 5 }).name).toBe(5);
    expect(read({ name: { $ne: null } }).name).toEqual({ $ne: null });
  });

  it('QueryText trims, and a blank text is not given', () => {
    expect(read({ q: ' lamp ' }).q).toBe('lamp');
    expect(read({ q: '' }).q).toBeUndefined();
    expect(read({ q: '  ' }).q).toBeUndefined();
    expect(read({ q: ['a', 'b'] }).q).toEqual(['a', 'b']);
  });

  it("QueryBoolean reads 'true'/'1' and 'false'/'0', '' as not given, and leaves the rest", () => {
    expect([read({ paid: 'true' }), read({ paid: '1' })].map((query) => query.paid)).toEqual([true, true]);
    expect([read({ paid: 'false' }), read({ paid: '0' })].map((query) => query.paid)).toEqual([false, false]);
    expect(read({ paid: '' }).paid).toBeUndefined();
    expect(read({ paid: 'maybe' }).paid).toBe('maybe');
  });

  it('QueryNumber reads digits only; other text becomes NaN for the validators to refuse', () => {
    expect(read({ page: '2' }).page).toBe(2);
    expect(read({ page: ' -3 ' }).page).toBe(-3);
    expect(read({ page: '' }).page).toBeUndefined();
    for (const bad of ['2abc', '0x10', '1e3', '2.5']) expect(read({ page: bad }).page, bad).toBeNaN();
    expect(read({ page: ['1', '2'] }).page).toEqual(['1', '2']);
  });
});
