import { BadRequestException } from '@nestjs/common';

/** One violation as the data service logs it, whichever way the browser sent it. */
export interface CspViolation {
  documentURL: string;
  blockedURL: string;
  directive: string;
  disposition: string;
  sourceFile: string;
  lineNumber: number | null;
  sample: string;
}

/** The content types browsers send reports with: the Reporting API's (`report-to`), the older `report-uri`'s. */
export const CSP_REPORT_CONTENT_TYPES = ['application/reports+json', 'application/csp-report'];

/** Reports in one request: a browser batches a handful; more is someone filling the logs. */
export const MAX_REPORTS_PER_REQUEST = 50;
const MAX_FIELD_LENGTH = 512;

type Fields = Record<string, unknown>;
const isFields = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function text(fields: Fields, ...names: string[]): string {
  for (const name of names) {
    const value = fields[name];
    if (typeof value === 'string') return value.slice(0, MAX_FIELD_LENGTH);
  }
  return '';
}

function line(fields: Fields, ...names: string[]): number | null {
  for (const name of names) {
    const value = fields[name];
    if (typeof value === 'number' && Number.isFinite(value)) return value;
  }
  return null;
}

function violationOf(fields: Fields): CspViolation {
  return {
    documentURL: text(fields, 'documentURL', 'document-uri'),
    blockedURL: text(fields, 'blockedURL', 'blocked-uri'),
    directive: text(fields, 'effectiveDirective', 'effective-directive', 'violated-directive'),
    disposition: text(fields, 'disposition') || 'enforce',
    sourceFile: text(fields, 'sourceFile', 'source-file'),
    lineNumber: line(fields, 'lineNumber', 'line-number'),
    sample: text(fields, 'sample', 'script-sample'),
  };
}

/**
 * The violations of a report body: the Reporting API's list of `{ type: 'csp-violation', body }` (other
 * report types in it are skipped), or the older `{ "csp-report": { … } }`. Anything else is a 400.
 */
export function readCspReports(body: unknown): CspViolation[] {
  if (Array.isArray(body)) {
    if (body.length > MAX_REPORTS_PER_REQUEST) {
      throw new BadRequestException(`At most ${MAX_REPORTS_PER_REQUEST} reports per request`);
    }
    return body.flatMap((report: unknown) => {
      if (!isFields(report) || !isFields(report['body'])) {
        throw new BadRequestException('Each report must be an object with a body');
      }
      return report['type'] === 'csp-violation' ? [violationOf(report['body'])] : [];
    });
  }
  if (isFields(body) && isFields(body['csp-report'])) return [violationOf(body['csp-report'])];
  throw new BadRequestException('Expected a list of reports or a csp-report object');
}
