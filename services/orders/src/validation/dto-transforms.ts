import { Transform } from 'class-transformer';

/** Trims a string; leaves anything else to the validators. */
export const Trim = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value));

/** Reads a query flag: 'true'/'1' and 'false'/'0'; anything else is left to the validators. */
export const QueryBoolean = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => {
    if (value === 'true' || value === '1') return true;
    if (value === 'false' || value === '0') return false;
    return value;
  });
