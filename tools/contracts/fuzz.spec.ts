// The coverage floor of the fuzzing (docs/contracts.md) on reports written by hand in Schemathesis's shapes: an
// operation without a case, or one a user may call whose cases were all refused, is a gap. The real
// runs are in e2e/tests/fuzz.spec.ts.
import { describe, expect, it } from 'vitest';
import { type FuzzResult, coverageGaps, documentOperations, readReport, readRefusedOnly } from './fuzz.js';

const document = JSON.stringify({
  paths: {
    '/api/things': { get: {}, post: { 'x-admin-only': true } },
    '/api/things/{id}': { delete: { 'x-admin-only': true }, parameters: [] },
  },
});

/** One finished scenario of the NDJSON event stream, with `cases` test cases. */
const scenario = (label: string, phase: string, cases: number) =>
  JSON.stringify({
    ScenarioFinished: {
      phase,
      recorder: {
        label,
        cases: Object.fromEntries(Array.from({ length: cases }, (_, i) => [`${label}-${phase}-${i}`, {}])),
        checks: {},
      },
    },
  });

const run = (casesByOperation: Record<string, number>, refusedOnly: string[] = []): FuzzResult => ({
  service: 'things',
  exitCode: 0,
  cases: Object.values(casesByOperation).reduce((sum, cases) => sum + cases, 0),
  operations: documentOperations(document).map((operation) => ({
    ...operation,
    cases: casesByOperation[operation.operation] ?? 0,
  })),
  refusedOnly,
  failures: [],
  output: '',
  seconds: 1,
});

describe('the fuzzing coverage floor', () => {
  it("lists the document's operations as Schemathesis labels them, with the admin-only ones", () => {
    expect(documentOperations(document)).toEqual([
      { operation: 'GET /api/things', adminOnly: false },
      { operation: 'POST /api/things', adminOnly: true },
      { operation: 'DELETE /api/things/{id}', adminOnly: true },
    ]);
  });

  it("counts each operation's cases over its phases, the stateful ones apart", () => {
    const report = [
      scenario('GET /api/things', 'examples', 0),
      scenario('GET /api/things', 'coverage', 9),
      scenario('GET /api/things', 'fuzzing', 3),
      scenario('POST /api/things', 'coverage', 4),
      scenario('Stateful tests', 'stateful', 5),
      JSON.stringify({ PhaseFinished: { phase: 'fuzzing' } }),
    ].join('\n');
    expect(readReport(report)).toEqual({
      cases: 21,
      failures: [],
      casesByOperation: { 'GET /api/things': 12, 'POST /api/things': 4, 'Stateful tests': 5 },
    });
  });

  it("reads the operations that met only 401/403 from the run report's warnings", () => {
    const report = JSON.stringify({
      warnings: { missing_auth: ['POST /api/things', 'DELETE /api/things/{id}'] },
    });
    expect(readRefusedOnly(report)).toEqual(['DELETE /api/things/{id}', 'POST /api/things']);
  });

  it('finds no gap when every operation had cases and only admin operations refused the shopper', () => {
    const cases = { 'GET /api/things': 12, 'POST /api/things': 4, 'DELETE /api/things/{id}': 3 };
    const refused = ['DELETE /api/things/{id}', 'POST /api/things'];
    expect(coverageGaps(run(cases, refused), 'shopper')).toEqual([]);
    expect(coverageGaps(run(cases), 'admin')).toEqual([]);
  });

  it('names an operation without a case, whoever ran', () => {
    const cases = { 'GET /api/things': 12, 'POST /api/things': 4 };
    expect(coverageGaps(run(cases), 'shopper')).toEqual(['DELETE /api/things/{id}: no test case']);
    expect(coverageGaps(run(cases), 'admin')).toEqual(['DELETE /api/things/{id}: no test case']);
  });

  it('names an operation the user may call whose every case was refused', () => {
    const cases = { 'GET /api/things': 12, 'POST /api/things': 4, 'DELETE /api/things/{id}': 3 };
    expect(coverageGaps(run(cases, ['GET /api/things']), 'shopper')).toEqual([
      'GET /api/things: every case refused (401/403) though a shopper may call it',
    ]);
    expect(coverageGaps(run(cases, ['POST /api/things']), 'admin')).toEqual([
      'POST /api/things: every case refused (401/403) though an admin may call it',
    ]);
  });
});
