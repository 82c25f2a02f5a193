import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { AllExceptionsFilter } from '@shop/service-kit';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { API_DOCS_FOLDER, API_DOCS_NOT_BUILT, ApiDocsController } from './api-docs.controller';

const POLICY = "default-src 'none'; script-src 'sha256-abc='";
let app: NestFastifyApplication | undefined;

async function serve(folder: string): Promise<NestFastifyApplication> {
  const module = await Test.createTestingModule({
    controllers: [ApiDocsController],
    providers: [{ provide: API_DOCS_FOLDER, useValue: folder }],
  }).compile();
  app = module.createNestApplication<NestFastifyApplication>(new FastifyAdapter());
  app.useGlobalFilters(new AllExceptionsFilter(pino({ level: 'silent' })));
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return app;
}

afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('GET /api/docs', () => {
  it('answers the built page with its own policy, and 304 to a client that holds it', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'api-reference-'));
    writeFileSync(join(folder, 'index.html'), '<!doctype html><title>Shop API reference</title>');
    writeFileSync(join(folder, 'headers.json'), JSON.stringify({ 'content-security-policy': POLICY }));
    const server = (await serve(folder)).getHttpAdapter().getInstance();

    const page = await server.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toBe(POLICY);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.body).toContain('Shop API reference');

    const etag = String(page.headers.etag);
    const again = await server.inject({
      method: 'GET',
      url: '/api/docs',
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('answers a JSON 404 saying how to build it when it is not built', async () => {
    const server = (await serve(mkdtempSync(join(tmpdir(), 'api-reference-'))))
      .getHttpAdapter()
      .getInstance();
    const missing = await server.inject({ method: 'GET', url: '/api/docs' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: API_DOCS_NOT_BUILT });
  });
});
