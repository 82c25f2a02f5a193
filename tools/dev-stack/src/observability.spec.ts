import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@shop/infra';
import { afterAll, describe, expect, it } from 'vitest';
import { observabilityWanted, scrapeConfig, startJaeger, startVictoriaMetrics } from './observability.js';
import type { PartRun } from './supervisor.js';

const dir = mkdtempSync(join(tmpdir(), 'observability-'));
const started: PartRun[] = [];
const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(started.map((part) => part.stop()));
  for (const server of servers) server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`not seen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('observabilityWanted', () => {
  it('is on unless SHOP_OBSERVABILITY says 0, false, off or no', () => {
    expect(observabilityWanted({})).toBe(true);
    expect(observabilityWanted({ SHOP_OBSERVABILITY: '1' })).toBe(true);
    for (const off of ['0', 'false', 'OFF', ' no ']) {
      expect(observabilityWanted({ SHOP_OBSERVABILITY: off }), off).toBe(false);
    }
  });
});

describe('Jaeger as the stack runs it', () => {
  it('takes a span over OTLP/HTTP and answers it from its query API', async () => {
    const ports = { otlpHttp: await freePort(), query: await freePort(), queryGrpc: await freePort() };
    started.push(await startJaeger({ ports, dir: join(dir, 'jaeger'), logFile: join(dir, 'jaeger.log') }));
    const traceId = randomBytes(16).toString('hex');
    const now = BigInt(Date.now()) * 1_000_000n;
    const span = {
      resourceSpans: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'spec-service' } }] },
          scopeSpans: [
            {
              spans: [
                {
                  traceId,
                  spanId: randomBytes(8).toString('hex'),
                  name: 'spec operation',
                  kind: 2,
                  startTimeUnixNano: String(now),
                  endTimeUnixNano: String(now + 5_000_000n),
                },
              ],
            },
          ],
        },
      ],
    };
    const accepted = await fetch(`http://127.0.0.1:${ports.otlpHttp}/v1/traces`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(span),
    });
    expect(accepted.status).toBe(200);
    const trace = await eventually(async () => {
      const response = await fetch(`http://127.0.0.1:${ports.query}/api/traces/${traceId}`);
      if (!response.ok) return undefined;
      const body = (await response.json()) as {
        data: { spans: { operationName: string }[]; processes: Record<string, { serviceName: string }> }[];
      };
      return body.data[0];
    });
    expect(trace.spans.map((s) => s.operationName)).toEqual(['spec operation']);
    expect(Object.values(trace.processes).map((p) => p.serviceName)).toEqual(['spec-service']);
  }, 60_000);
});

describe('VictoriaMetrics as the stack runs it', () => {
  it('scrapes the targets of the generated configuration and answers their samples', async () => {
    let value = 41;
    const target = createServer((request, response) => {
      if (request.url !== '/metrics') return void response.writeHead(404).end();
      value += 1;
      response.writeHead(200, { 'Content-Type': 'text/plain; version=0.0.4' });
      response.end(`# TYPE spec_requests_total counter\nspec_requests_total{reason="known"} ${value}\n`);
    });
    servers.push(target);
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const address = `127.0.0.1:${(target.address() as AddressInfo).port}`;
    const scrapeFile = join(dir, 'scrape.json');
    writeFileSync(scrapeFile, JSON.stringify(scrapeConfig([{ job: 'spec', address }], 1)));
    const port = await freePort();
    started.push(
      await startVictoriaMetrics({
        port,
        dataDir: join(dir, 'vm'),
        scrapeConfigFile: scrapeFile,
        logFile: join(dir, 'vm.log'),
      }),
    );
    const sample = await eventually(async () => {
      const query = encodeURIComponent('spec_requests_total{job="spec",reason="known"}');
      const response = await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${query}`);
      const body = (await response.json()) as { data: { result: { value: [number, string] }[] } };
      return body.data.result[0];
    });
    expect(Number(sample.value[1])).toBeGreaterThan(41);
  }, 60_000);
});
