import { Module } from '@nestjs/common';
import { CspReportParser } from './csp-report-parser';
import { CspReportsController } from './csp-reports.controller';

/** Where browsers report Content-Security-Policy violations: logged and counted, nothing stored. */
@Module({
  controllers: [CspReportsController],
  providers: [CspReportParser],
})
export class CspReportsModule {}
