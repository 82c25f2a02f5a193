import type { OpenAPIObject } from '@nestjs/swagger';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A 3.0 `nullable: true` schema as 3.1 says it: `null` is one more type (or one more choice). */
function withoutNullable(schema: { [key: string]: Json }): { [key: string]: Json } {
  const { nullable, ...rest } = schema;
  if (nullable !== true) return rest;
  if (typeof rest.type === 'string') return { ...rest, type: [rest.type, 'null'] };
  return { oneOf: [rest, { type: 'null' }] };
}

function convert(value: Json): Json {
  if (Array.isArray(value)) return value.map(convert);
  if (value === null || typeof value !== 'object') return value;
  const converted: { [key: string]: Json } = {};
  for (const [key, child] of Object.entries(value)) converted[key] = convert(child);
  // 3.1 says raw bytes by their media type, not with 3.0's `format: binary`.
  if (converted.format === 'binary') {
    delete converted.format;
    converted.contentMediaType = 'application/octet-stream';
  }
  return 'nullable' in converted ? withoutNullable(converted) : converted;
}

/**
 * @nestjs/swagger writes OpenAPI 3.0; the documents are 3.1 (JSON Schema 2020-12), which differs in
 * what the decorators here produce by how a value that may be null is said, and how bytes are.
 */
export function toOpenApi31(document: OpenAPIObject): OpenAPIObject {
  const converted = convert(document as unknown as Json) as unknown as OpenAPIObject;
  return { ...converted, openapi: '3.1.0' };
}
