import { basename } from 'node:path';
import type { DynamicModule } from '@nestjs/common';
import { expect } from 'vitest';
import { openApiDocument, readOpenApiDocument } from './openapi-document';

/**
 * The test behind every service's committed `openapi.json`: the document the code declares must be
 * the one committed. It only compares, whatever the environment says: writing the file is another
 * command, `npm run openapi -w @shop/<name>` (see `openapi-write.ts`), so a test run can never
 * make the committed document agree with the code by rewriting it.
 */
export async function checkOpenApiDocument(serviceRoot: string, module: DynamicModule): Promise<void> {
  const document = await openApiDocument(serviceRoot, module);
  const name = basename(serviceRoot);
  // Compared as JSON: what the file can hold (no undefined members); the diff reads - code, + file.
  expect(
    readOpenApiDocument(serviceRoot),
    `services/${name}/openapi.json differs from what the code declares (- code, + file): run \`npm run openapi -w @shop/${name}\` and commit the file`,
  ).toEqual(JSON.parse(JSON.stringify(document)));
}
