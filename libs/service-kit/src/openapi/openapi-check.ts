import type { OpenAPIObject } from '@nestjs/swagger';
import { expect } from 'vitest';
import { readOpenApiDocument, writeOpenApiDocument } from './openapi-document';

/**
 * The test behind every service's committed `openapi.json`: the document the code declares must be
 * the one committed. With `OPENAPI_WRITE=1` (`npm run openapi -w @shop/<name>`) it writes the file
 * instead, which is how the documents are generated.
 */
export async function checkOpenApiDocument(
  name: string,
  serviceRoot: string,
  document: OpenAPIObject,
): Promise<void> {
  if (process.env.OPENAPI_WRITE === '1') {
    await writeOpenApiDocument(serviceRoot, document);
    return;
  }
  expect(
    readOpenApiDocument(serviceRoot),
    `services/${name}/openapi.json differs from what the code declares: run \`npm run openapi -w @shop/${name}\` and commit the file`,
  ).toEqual(document);
}
