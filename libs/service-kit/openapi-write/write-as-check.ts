// What `@shop/service-kit/openapi-check` resolves to under the write command's config only
// (vitest.config.mts beside this file): the services' specs import the check by that name.
export { writeServiceOpenApiDocument as checkOpenApiDocument } from '../src/openapi/openapi-write';
