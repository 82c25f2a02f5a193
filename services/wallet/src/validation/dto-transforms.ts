import { Transform } from 'class-transformer';

/** Trims a string; leaves anything else to the validators. */
export const Trim = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value));
