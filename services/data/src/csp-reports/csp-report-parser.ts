import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyAdapter } from '@nestjs/platform-fastify';
import { CSP_REPORT_CONTENT_TYPES } from './csp-report';

/** Largest report body accepted: a browser's batch is a few KB (kong.yml refuses more first). */
const REPORT_BODY_LIMIT = 64 * 1024;

/**
 * Lets Fastify read the reports' content types as JSON (it knows only application/json): without it
 * every report would be refused with 415 before reaching the controller.
 */
@Injectable()
export class CspReportParser implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost<FastifyAdapter>) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance();
    fastify.addContentTypeParser(
      CSP_REPORT_CONTENT_TYPES,
      { parseAs: 'string', bodyLimit: REPORT_BODY_LIMIT },
      fastify.getDefaultJsonParser('error', 'error'),
    );
  }
}
