import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { count, id, messageJsonSchema } from './fields';

describe('messageJsonSchema', () => {
  it('writes a closed object as the AsyncAPI documents have it: type, additionalProperties, required, properties', () => {
    const schema = messageJsonSchema(
      z.strictObject({ orderId: id('The order'), note: z.string().optional() }),
    );
    expect(schema).toEqual({
      type: 'object',
      additionalProperties: false,
      required: ['orderId'],
      properties: {
        orderId: { type: 'string', minLength: 1, description: 'The order' },
        note: { type: 'string' },
      },
    });
    expect(Object.keys(schema)).toEqual(['type', 'additionalProperties', 'required', 'properties']);
  });

  it('gives an integer no safe-integer bound JSON does not have', () => {
    expect(messageJsonSchema(count('How many'))).toEqual({
      type: 'integer',
      minimum: 0,
      description: 'How many',
    });
    expect(messageJsonSchema(z.int())).toEqual({ type: 'integer' });
  });

  it("writes a pattern without the '\\/' of a JavaScript regular expression's source", () => {
    expect(messageJsonSchema(z.string().regex(/^\/api\/media\//))).toEqual({
      type: 'string',
      pattern: '^/api/media/',
    });
    // An escaped backslash before a slash stays escaped.
    expect(messageJsonSchema(z.string().regex(/^a\\\/b$/))).toEqual({ type: 'string', pattern: '^a\\\\/b$' });
  });
});
