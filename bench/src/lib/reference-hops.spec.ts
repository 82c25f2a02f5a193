import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processCpuMs } from './part-clocks.js';
import { type ReferenceHop, startNginxHop, startNodeHop } from './reference-hops.js';

// A service of its own: the hops must pass its answer on as it is, and the bench must count the CPU of
// every process a hop runs in (nginx answers from its workers, not its master).
const body = Buffer.from(
  JSON.stringify({ products: Array.from({ length: 40 }, (_, i) => ({ name: `p${i}` })) }),
);
let service: Server;
let port: number;
const seen: string[] = [];

beforeAll(async () => {
  service = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json', 'x-total-count': '40' });
    res.end(body);
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  port = (service.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => service.close(() => resolve())));

async function passesTheAnswerOn(hop: ReferenceHop): Promise<void> {
  seen.length = 0;
  const answer = await fetch(`${hop.url}/api/products?page=2`);
  expect(answer.status).toBe(200);
  expect(answer.headers.get('x-total-count')).toBe('40');
  expect(Buffer.from(await answer.arrayBuffer()).equals(body)).toBe(true);
  expect(seen).toEqual(['GET /api/products?page=2']);
}

describe('the hops the reads section compares the gateway with', () => {
  it('nginx passes the answer on as it is, and its CPU counts its workers', async () => {
    const nginx = await startNginxHop(port, '/api/products');
    try {
      await passesTheAnswerOn(nginx);
      const before = nginx.cpuMs();
      for (let round = 0; round < 40; round++) {
        await Promise.all(
          Array.from({ length: 50 }, () => fetch(`${nginx.url}/api/products`).then((r) => r.arrayBuffer())),
        );
      }
      // The master only hands connections out: without its workers' clocks this stays at 0.
      expect(nginx.cpuMs() - before, 'CPU ms of nginx over 2,000 answers').toBeGreaterThan(0);
    } finally {
      await nginx.close();
    }
  });

  it('the plainest Node proxy passes the answer on as it is', async () => {
    const node = await startNodeHop(port, () => processCpuMs(process.pid));
    try {
      await passesTheAnswerOn(node);
    } finally {
      await node.close();
    }
  });
});
