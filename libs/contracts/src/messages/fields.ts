import { z } from 'zod';

/**
 * The building blocks of every message body the services exchange over NATS. Each message is declared
 * once, as a zod schema beside its subject: its TypeScript type is `z.infer` of it, and its JSON Schema
 * (the payload in each service's AsyncAPI document) is `messageJsonSchema` of it. Objects are closed
 * (`z.strictObject`): a producer that sends a field no schema names fails the captured-message check
 * of the browser tests (docs/contracts.md). Readers still ignore fields they do not know: nothing
 * parses a received message with these schemas.
 */
export const id = (description: string) => z.string().min(1).describe(description);
export const text = () => z.string();
/** An ISO 8601 date and time, as `Date.prototype.toJSON` writes it. */
export const isoDate = (description: string) => z.string().meta({ format: 'date-time', description });
/** An amount of the shop's currency, as the catalogue and orders hold it (two decimals at most). */
export const money = (description: string) => z.number().min(0).describe(description);
export const count = (description: string) => z.int().min(0).describe(description);
export const positive = (description: string) => z.int().min(1).describe(description);

/** A product and how many of it: the lines of stock commands and of order events. */
export const stockLine = () =>
  z.strictObject({
    productId: id('A product'),
    /** Lines for the same product are merged by the sender. */
    quantity: positive('How many'),
  });

export type JsonSchema = { [key: string]: unknown };

/**
 * The JSON Schema (draft-07, which AsyncAPI 3's schema format extends) of a message body. JSON has no
 * integer size: the safe-integer bound zod gives every `z.int()` is left out. A pattern loses the `\/`
 * a JavaScript regular expression's source writes for `/` (JSON has no delimiter). An object's keys read
 * `type`, `additionalProperties`, `required`, then `properties`, as the documents have always had them.
 */
export function messageJsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _draft, ...json } = z.toJSONSchema(schema, {
    target: 'draft-07',
    override: ({ jsonSchema }) => {
      if (jsonSchema.type === 'integer') {
        if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
        if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
      }
      if (typeof jsonSchema.pattern === 'string')
        jsonSchema.pattern = jsonSchema.pattern.replace(/(?<!\\)((?:\\\\)*)\\\//g, '$1/');
      if (jsonSchema.type === 'object') {
        const { properties, ...rest } = jsonSchema;
        const { type, additionalProperties, required, ...others } = rest;
        for (const key of Object.keys(jsonSchema)) delete (jsonSchema as JsonSchema)[key];
        Object.assign(jsonSchema, { type, additionalProperties, required, properties, ...others });
        for (const key of ['additionalProperties', 'required'] as const)
          if (jsonSchema[key] === undefined) delete jsonSchema[key];
      }
    },
  });
  return json;
}
