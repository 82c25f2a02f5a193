import { Transform } from 'class-transformer';

/** Trims and lower-cases an e-mail address; leaves anything that is not a string to the validators. */
export const NormaliseEmail = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? value.trim().toLowerCase() : value,
  );

/** Trims a string; leaves anything else to the validators. */
export const Trim = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value));
