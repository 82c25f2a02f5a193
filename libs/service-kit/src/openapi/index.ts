export * from './openapi-document';
export * from './openapi-responses';
export * from './validation-schemas';
