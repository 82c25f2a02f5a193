import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type FuzzResult, coverageGaps, fuzzService, watchNats } from '@shop/contract-tools';
import { SEEDED_ADMIN, expect, signInThroughApi, signUpThroughApi, test } from './fixtures';

// API fuzzing (docs/contracts.md): Schemathesis generates requests from every service's OpenAPI
// document and sends them through the gateway, as a shopper and as an admin: no answer may be a 5xx,
// every answer must match the document (status, content type, headers, body), and no request may
// hang. Meanwhile every message on NATS is checked against the services' AsyncAPI documents. The run
// writes random data through every admin call, so it has a shop of its own (the `fuzz` project of
// playwright.config.ts).
//
// Every operation of every document must get test cases in both runs, and one the user may call must
// not have refused them all: runs are bounded by examples per operation, not by time, so a
// slow machine takes longer instead of fuzzing less (a time budget once left orders with 0 cases).

// users last: its runs may change the signed-in user's password or delete an account (as they may),
// after which that token is refused, and every later run of that user would only meet 401s.
const SERVICES = ['products', 'orders', 'wallet', 'data', 'media', 'users'] as const;

test.describe.configure({ mode: 'serial' });

test('Schemathesis finds nothing in any service, as a shopper and as an admin, and every NATS message matches its AsyncAPI document', async ({
  stack,
}) => {
  // The hang guard: the runs end by themselves once every operation had its cases (~2 min measured on
  // this busy 2-core machine, docs/contracts.md); each request has its own 10 s timeout.
  test.setTimeout(600_000);
  const watch = await watchNats(`nats://127.0.0.1:${stack.ports.nats}`);
  const shopper = await signUpThroughApi(stack.url);
  const admin = await signInThroughApi(stack.url, SEEDED_ADMIN.email, SEEDED_ADMIN.password);
  const started = Date.now();
  const results: (FuzzResult & { who: 'shopper' | 'admin' })[] = [];
  for (const service of SERVICES) {
    // The shopper's and the admin's runs of a service side by side.
    const runs = await Promise.all(
      (
        [
          ['shopper', shopper.token],
          ['admin', admin.token],
        ] as const
      ).map(async ([who, token]) => ({
        who,
        ...(await fuzzService({ service, baseUrl: stack.url, token })),
      })),
    );
    results.push(...runs);
  }
  const seconds = (Date.now() - started) / 1000;
  await watch.stop();

  const total = results.reduce((sum, result) => sum + result.cases, 0);
  const lines = results.map(
    (r) =>
      `${r.who.padEnd(7)} ${r.service.padEnd(8)} ${String(r.cases).padStart(5)} cases ${r.seconds.toFixed(1)} s`,
  );
  console.log(
    `Schemathesis: ${total} test cases in ${seconds.toFixed(0)} s\n${lines.join('\n')}\nNATS: ${watch.count()} messages checked`,
  );
  const perOperation = perOperationTable(results);
  console.log(perOperation);
  await test
    .info()
    .attach('schemathesis cases per operation', { body: perOperation, contentType: 'text/plain' });
  test.info().annotations.push({ type: 'schemathesis cases', description: String(total) });

  for (const result of results) {
    expect(result.failures, `${result.who} ${result.service}:\n${result.output.slice(-4000)}`).toEqual([]);
    expect(result.exitCode, `${result.who} ${result.service}:\n${result.output.slice(-4000)}`).toBe(0);
  }
  const gaps = results.flatMap((r) => coverageGaps(r, r.who).map((gap) => `${r.who} ${r.service}: ${gap}`));
  expect(gaps, 'operations without test cases').toEqual([]);
  expect(watch.problems).toEqual([]);
  expect(watch.count()).toBeGreaterThan(0);
});

/** Cases per operation, the shopper's and the admin's run side by side; `*` marks a refused-only one. */
function perOperationTable(results: (FuzzResult & { who: 'shopper' | 'admin' })[]): string {
  const rows = new Map<string, Partial<Record<'shopper' | 'admin', string>>>();
  for (const result of results)
    for (const { operation, cases } of result.operations) {
      const key = `${result.service.padEnd(8)} ${operation}`;
      const refused = result.refusedOnly.includes(operation) ? '*' : ' ';
      rows.set(key, { ...rows.get(key), [result.who]: `${String(cases).padStart(4)}${refused}` });
    }
  return [
    `${'operation'.padEnd(55)} shopper   admin   (* every case refused, 401/403)`,
    ...[...rows].map(([key, row]) => `${key.padEnd(55)} ${row.shopper ?? '   -'}    ${row.admin ?? '   -'}`),
  ].join('\n');
}

test('the check can fail: an answer the document does not describe is found', async ({ stack }, testInfo) => {
  // The wallet's document with the answer of GET /api/wallet/all-wallets narrowed to what the service never sends.
  const document = JSON.parse(
    readFileSync(join(import.meta.dirname, '..', '..', 'services', 'wallet', 'openapi.json'), 'utf8'),
  ) as {
    paths: Record<
      string,
      { get?: { responses: Record<string, { content: Record<string, { schema: unknown }> }> } }
    >;
  };
  const get = document.paths['/api/wallet/all-wallets']?.get;
  expect(get, 'GET /api/wallet/all-wallets in the wallet document').toBeDefined();
  get!.responses['200']!.content['application/json']!.schema = { type: 'string' };
  const path = testInfo.outputPath('wrong-openapi.json');
  writeFileSync(path, JSON.stringify(document));
  const shopper = await signUpThroughApi(stack.url);
  const result = await fuzzService({
    service: 'wallet',
    document: path,
    baseUrl: stack.url,
    token: shopper.token,
  });
  expect(result.failures).toContainEqual(
    expect.stringMatching(/GET \/api\/wallet\/all-wallets: response_schema_conformance/),
  );
  expect(result.exitCode).not.toBe(0);
});
