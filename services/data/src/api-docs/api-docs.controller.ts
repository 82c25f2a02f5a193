import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Controller, Get, Headers, Inject, NotFoundException, Optional, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';

/**
 * Where the build puts the API reference (`npm run build -w @shop/data`, from the six services'
 * openapi.json by tools/contracts/openapi.ts): services/data/dist/api-reference, which is the same path
 * from this file in src/ (tests) and in dist/ (the service and its image).
 */
const API_DOCS_DIR = join(__dirname, '..', '..', 'dist', 'api-reference');

/** Provider token of another folder to serve the reference from (tests). */
export const API_DOCS_FOLDER = Symbol('API_DOCS_FOLDER');

export const API_DOCS_NOT_BUILT = 'The API reference is not built: npm run build -w @shop/data';

interface Reference {
  html: Buffer;
  etag: string;
  headers: Record<string, string>;
}

function readReference(dir: string): Reference | undefined {
  const page = join(dir, 'index.html');
  if (!existsSync(page)) return undefined;
  const html = readFileSync(page);
  const headers = JSON.parse(readFileSync(join(dir, 'headers.json'), 'utf8')) as Record<string, string>;
  return { html, headers, etag: `"${createHash('sha256').update(html).digest('base64url')}"` };
}

/**
 * `GET /api/docs`: the API reference for people, one HTML page (Redoc) of every service's routes, with
 * its own Content-Security-Policy that allows its inline scripts and styles by hash and nothing else
 * (docs/decisions/0015-api-reference.md). Not part of the data API's own document.
 */
@ApiExcludeController()
@Controller('api/docs')
export class ApiDocsController {
  private readonly reference: Reference | undefined;

  constructor(@Optional() @Inject(API_DOCS_FOLDER) folder?: string) {
    this.reference = readReference(folder ?? API_DOCS_DIR);
  }

  @Get()
  serve(@Headers('if-none-match') ifNoneMatch: string | undefined, @Res() reply: FastifyReply): void {
    const reference = this.reference;
    if (!reference) throw new NotFoundException(API_DOCS_NOT_BUILT);
    void reply.headers({ ...reference.headers, etag: reference.etag, 'cache-control': 'no-cache' });
    if (ifNoneMatch === reference.etag) {
      void reply.status(304).send();
      return;
    }
    void reply.status(200).header('content-type', 'text/html; charset=utf-8').send(reference.html);
  }
}
