import { Controller, HttpCode, Inject, Post, Req } from '@nestjs/common';
import { SERVICE_CONTEXT, type ServiceContext, shopCounter } from '@shop/service-kit';
import { readCspReports } from './csp-report';

/**
 * `POST /api/csp-reports`: where the page's Content-Security-Policy sends its violations
 * (docs/security.md). Each is one JSON log line and one count of `shop_csp_violations_total{directive}`.
 * No token: browsers send reports on their own.
 */
@Controller('api/csp-reports')
export class CspReportsController {
  private readonly violations = shopCounter(
    'shop.csp.violations',
    'Content-Security-Policy violations reported by browsers, by directive',
  );

  constructor(@Inject(SERVICE_CONTEXT) private readonly context: ServiceContext) {}

  @Post()
  @HttpCode(204)
  // The request itself, not @Body(): the Reporting API sends a list, and the global pipe takes bodies
  // for DTO objects.
  receive(@Req() request: { body: unknown }): void {
    for (const violation of readCspReports(request.body)) {
      this.violations.add(1, { directive: violation.directive || 'unknown' });
      this.context.logger.warn({ cspViolation: violation }, 'content security policy violation');
    }
  }
}
