import { Transform } from 'class-transformer';

/** Trims a string; leaves anything else to the validators. */
export const Trim = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value));

/** Trims a query text; a blank one (`?q=` or `?q=%20`) means "not given". Anything else is left to the validators. */
export const QueryText = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => {
    if (typeof value !== 'string') return value;
    const trimmed = value.trim();
    return trimmed === '' ? undefined : trimmed;
  });

/** Reads a query flag: 'true'/'1' and 'false'/'0', '' as not given; anything else is left to the validators. */
export const QueryBoolean = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => {
    if (value === '') return undefined;
    if (value === 'true' || value === '1') return true;
    if (value === 'false' || value === '0') return false;
    return value;
  });

/**
 * Reads a query number written in digits ('2'), '' as not given; anything else ('2abc', '0x10', an
 * array) becomes NaN or stays as it is, for the validators to refuse, rather than being read as a
 * number it is not.
 */
export const QueryNumber = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => {
    if (typeof value !== 'string') return value;
    const text = value.trim();
    if (text === '') return undefined;
    return /^-?\d+$/.test(text) ? Number(text) : Number.NaN;
  });
