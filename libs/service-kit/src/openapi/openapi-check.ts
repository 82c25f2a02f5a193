import { basename } from 'node:path';
import type { DynamicModule } from '@nestjs/common';
import { expect } from 'vitest';
import { openApiDocument, readOpenApiDocument, writeOpenApiDocument } from './openapi-document';

/**
 * The test behind every service's committed `openapi.json`: the document the code declares must be
 * the one committed. With `OPENAPI_WRITE=1` (`npm run openapi -w @shop/<name>`) it writes the file
 * instead, which is how the documents are generated.
 */
export async function checkOpenApiDocument(serviceRoot: string, module: DynamicModule): Promise<void> {
  const document = await openApiDocument(serviceRoot, module);
  const name = basename(serviceRoot);
  if (process.env.OPENAPI_WRITE === '1') {
    await writeOpenApiDocument(serviceRoot, document);
    return;
  }
  // Compared as JSON: what the file can hold (no undefined members); the diff reads - code, + file.
  expect(
    readOpenApiDocument(serviceRoot),
    `services/${name}/openapi.json differs from what the code declares (- code, + file): run \`npm run openapi -w @shop/${name}\` and commit the file`,
  ).toEqual(JSON.parse(JSON.stringify(document)));
}
