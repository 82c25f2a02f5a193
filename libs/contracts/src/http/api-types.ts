import type { components, paths } from '../generated/api';

// The shapes the front-ends send and read are the services' OpenAPI documents, typed by
// openapi-typescript into generated/api.ts (docs/decisions/0022-one-source-per-shape.md): the
// contract types are these names for them, never a second copy.

/** A named schema of the joined documents: a service's request DTO or answer class, by its class name. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

/** The query parameters an operation takes. */
export type QueryOf<
  Path extends keyof paths,
  Method extends keyof paths[Path],
> = paths[Path][Method] extends { parameters: { query?: infer Query } } ? NonNullable<Query> : never;
