import { describe, expect, it } from 'vitest';
import { MAX_REPORTS_PER_REQUEST, readCspReports } from './csp-report';

describe('readCspReports', () => {
  it("reads the Reporting API's list, skipping reports of other types", () => {
    const violations = readCspReports([
      {
        type: 'csp-violation',
        url: 'http://shop.local/',
        body: {
          documentURL: 'http://shop.local/cart',
          blockedURL: 'inline',
          effectiveDirective: 'script-src-elem',
          disposition: 'enforce',
          sourceFile: 'http://shop.local/0.1.0/main.js',
          lineNumber: 3,
          sample: 'alert(1)',
        },
      },
      { type: 'deprecation', body: { id: 'x' } },
    ]);
    expect(violations).toEqual([
      {
        documentURL: 'http://shop.local/cart',
        blockedURL: 'inline',
        directive: 'script-src-elem',
        disposition: 'enforce',
        sourceFile: 'http://shop.local/0.1.0/main.js',
        lineNumber: 3,
        sample: 'alert(1)',
      },
    ]);
  });

  it("reads report-uri's older shape", () => {
    const [violation] = readCspReports({
      'csp-report': {
        'document-uri': 'http://shop.local/',
        'blocked-uri': 'https://evil.example/x.js',
        'violated-directive': 'script-src',
        'line-number': 'not a number',
      },
    });
    expect(violation).toMatchObject({
      blockedURL: 'https://evil.example/x.js',
      directive: 'script-src',
      disposition: 'enforce',
      lineNumber: null,
    });
  });

  it('cuts long fields and refuses what is not a report', () => {
    const [violation] = readCspReports({ 'csp-report': { 'script-sample': 'x'.repeat(10_000) } });
    expect(violation?.sample).toHaveLength(512);
    expect(() => readCspReports({ hello: 'world' })).toThrow(/list of reports/);
    expect(() => readCspReports([42])).toThrow(/object with a body/);
    expect(() =>
      readCspReports(Array.from({ length: MAX_REPORTS_PER_REQUEST + 1 }, () => ({ type: 'x', body: {} }))),
    ).toThrow(/At most/);
  });
});
