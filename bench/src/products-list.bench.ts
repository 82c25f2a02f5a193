// GET /api/products three ways in one run: through the gateway, straight at the products service,
// and from a bare Node HTTP server answering the very same bytes. The bare server is the ceiling
// for this machine; the ratios say what the service and the gateway cost on top of it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { REPO_ROOT, startStack } from '@shop/tools';

const DURATION_S = Number(process.env['BENCH_DURATION_S'] ?? 10);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 10);
// The gateway's catalogue limit is generous for shoppers but far below a load test's rate.
const RATE_LIMIT_FACTOR = 10_000;

interface Row {
  target: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

async function measure(target: string, url: string): Promise<Row> {
  // A short warm-up so JIT and connection pools are settled before the measured run.
  await autocannon({ url, connections: CONNECTIONS, duration: 2 });
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S });
  return {
    target,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

async function main(): Promise<void> {
  console.log(`Starting the stack (gateway rate limits raised ${RATE_LIMIT_FACTOR}x for this load test)...`);
  const stack = await startStack({ ports: 'free', rateLimitFactor: RATE_LIMIT_FACTOR });
  const bare = createServer();
  try {
    const direct = `http://127.0.0.1:${stack.ports.products}/api/products`;
    const body = Buffer.from(await (await fetch(direct)).arrayBuffer());
    bare.on('request', (_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': body.length,
      });
      res.end(body);
    });
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    const barePort = (bare.address() as AddressInfo).port;

    const rows = [
      await measure('bare Node HTTP server, same bytes', `http://127.0.0.1:${barePort}/api/products`),
      await measure('products service, direct', direct),
      await measure('through the gateway', `${stack.url}/api/products`),
    ];
    const [ceiling] = rows;
    const table = [
      '| target | req/s | p50 ms | p99 ms | errors | non-2xx | share of bare |',
      '|---|---:|---:|---:|---:|---:|---:|',
      ...rows.map(
        (r) =>
          `| ${r.target} | ${r.requestsPerSecond} | ${r.p50Ms} | ${r.p99Ms} | ${r.errors} | ${r.non2xx} | ${(
            r.requestsPerSecond / ceiling!.requestsPerSecond
          ).toFixed(2)} |`,
      ),
    ].join('\n');
    const meta = `${new Date().toISOString()}, ${cpus().length} cores, Node ${process.version}, ${CONNECTIONS} connections, ${DURATION_S} s per target, response ${body.length} bytes`;
    console.log(`\n${meta}\n\n${table}\n`);
    const outDir = join(REPO_ROOT, 'bench', 'results');
    mkdirSync(outDir, { recursive: true });
    writeFileSync(join(outDir, 'products-list.json'), JSON.stringify({ meta, rows }, null, 2));
  } finally {
    bare.close();
    await stack.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
