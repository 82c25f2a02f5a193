import { Controller, HttpCode, Inject, Post, Req } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, SERVICE_CONTEXT, type ServiceContext, shopCounter } from '@shop/service-kit';
import { readCspReports } from './csp-report';

/**
 * `POST /api/csp-reports`: where the page's Content-Security-Policy sends its violations
 * (docs/security.md). Each is one JSON log line and one count of `shop_csp_violations_total{directive}`.
 * No token: browsers send reports on their own.
 */
@ApiTags('data')
@Controller('api/csp-reports')
export class CspReportsController {
  private readonly violations = shopCounter(
    'shop.csp.violations',
    'Content-Security-Policy violations reported by browsers, by directive',
  );

  constructor(@Inject(SERVICE_CONTEXT) private readonly context: ServiceContext) {}

  @Post()
  @HttpCode(204)
  @ApiOperation({
    summary: 'Content-Security-Policy violations, as a browser reports them (no token)',
    description: 'A Reporting API list of reports, or a legacy `{ "csp-report": { ... } }` object.',
  })
  @ApiConsumes('application/reports+json', 'application/csp-report', 'application/json')
  @ApiBody({
    schema: {
      oneOf: [
        {
          type: 'array',
          items: { type: 'object', properties: { body: { type: 'object' } }, required: ['body'] },
        },
        { type: 'object', properties: { 'csp-report': { type: 'object' } }, required: ['csp-report'] },
      ],
    },
  })
  @ApiNoContentResponse({ description: 'Counted and logged' })
  @ApiErrors(400)
  // The request itself, not @Body(): the Reporting API sends a list, and the global pipe takes bodies
  // for DTO objects.
  receive(@Req() request: { body: unknown }): void {
    for (const violation of readCspReports(request.body)) {
      this.violations.add(1, { directive: violation.directive || 'unknown' });
      this.context.logger.warn({ cspViolation: violation }, 'content security policy violation');
    }
  }
}
