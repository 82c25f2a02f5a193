import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ephemeralRangeStart, freePort } from './free-port.util.js';

describe('freePort', () => {
  it('gives a port below the range the OS takes outgoing connections’ ports from', async () => {
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(ephemeralRangeStart());
    }
  });

  it('gives a port that can be bound right away', async () => {
    const port = await freePort();
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});
