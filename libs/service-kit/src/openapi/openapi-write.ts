import { relative } from 'node:path';
import type { DynamicModule } from '@nestjs/common';
import { openApiDocument, writeOpenApiDocument } from './openapi-document';

/**
 * Writes a service's `openapi.json` from its code: what `npm run openapi -w @shop/<name>` does. The
 * command runs the service's `src/openapi.spec.ts` under `openapi-write/vitest.config.mts`, which
 * gives the spec this function in place of `checkOpenApiDocument`: the module the document is made
 * from stays declared once, in the spec, and the check itself never writes.
 */
export async function writeServiceOpenApiDocument(serviceRoot: string, module: DynamicModule): Promise<void> {
  const file = await writeOpenApiDocument(serviceRoot, await openApiDocument(serviceRoot, module));
  process.stdout.write(`wrote ${relative(process.cwd(), file) || file}\n`);
}
