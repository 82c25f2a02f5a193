// First: the SDK of this process (the data service runs in it) starts before anything it instruments.
import { telemetry } from './support/telemetry';
import { Writable } from 'node:stream';
import { freePort } from '@shop/testing';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DataHarness, startData } from './support/data.harness';

const lines: Record<string, unknown>[] = [];
let data: DataHarness;
let metricsUrl: string;

/** Posts a body through the gateway with the content type a browser uses. */
function post(body: string, contentType: string): Promise<Response> {
  return fetch(`${data.url}/api/csp-reports`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body,
  });
}

beforeAll(async () => {
  const metricsPort = await freePort();
  metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line));
      callback();
    },
  });
  data = await startData({
    env: { METRICS_PORT: String(metricsPort), LOG_LEVEL: 'info' },
    logger: pino({ level: 'info' }, sink),
  });
});

afterAll(async () => {
  await data?.close();
  await telemetry.shutdown();
});

/** `shop_csp_violations_total` for one directive, as Prometheus reads it. */
async function counted(directive: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  const line = text
    .split('\n')
    .find(
      (each) => each.startsWith('shop_csp_violations_total{') && each.includes(`directive="${directive}"`),
    );
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

describe('POST /api/csp-reports', () => {
  it("logs and counts each violation of the Reporting API's batch, one JSON line each", async () => {
    const report = {
      type: 'csp-violation',
      url: 'http://shop.local/',
      body: {
        documentURL: 'http://shop.local/',
        blockedURL: 'inline',
        effectiveDirective: 'script-src-elem',
      },
    };
    const before = await counted('script-src-elem');
    const response = await post(JSON.stringify([report, report]), 'application/reports+json');
    expect(response.status).toBe(204);
    expect(await counted('script-src-elem')).toBe(before + 2);
    const logged = lines.filter((line) => line['msg'] === 'content security policy violation');
    expect(logged).toHaveLength(2);
    expect(logged[0]).toMatchObject({
      level: 40,
      cspViolation: { documentURL: 'http://shop.local/', blockedURL: 'inline', directive: 'script-src-elem' },
    });
  });

  it("accepts report-uri's older content type", async () => {
    const body = { 'csp-report': { 'document-uri': 'http://shop.local/', 'violated-directive': 'img-src' } };
    expect((await post(JSON.stringify(body), 'application/csp-report')).status).toBe(204);
  });

  it('answers bad bodies with 400 and a message, never a 500', async () => {
    for (const [body, type] of [
      ['{not json', 'application/reports+json'],
      ['{"hello":"world"}', 'application/csp-report'],
      ['[1,2]', 'application/reports+json'],
    ]) {
      const response = await post(body!, type!);
      expect(response.status, body).toBe(400);
      expect(await response.json()).toEqual({ message: expect.any(String) });
    }
  });

  it('refuses a body larger than any browser batch at the edge', async () => {
    const response = await post(
      JSON.stringify([{ type: 'x', body: { pad: 'x'.repeat(70_000) } }]),
      'application/reports+json',
    );
    expect(response.status).toBe(413);
  });
});
