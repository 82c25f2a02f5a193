import { createServer } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { ephemeralRangeStart, freePort } from './free-port.js';

describe('freePort', () => {
  // First, while no port of this process is handed out yet.
  it('never gives a port fetch refuses to connect to (the Fetch standard’s bad ports)', async () => {
    const first = 10_000;
    const size = ephemeralRangeStart() - first;
    const random = vi.spyOn(Math, 'random').mockReturnValueOnce((10_080 - first + 0.5) / size);
    try {
      const port = await freePort();
      expect(port).not.toBe(10_080);
      expect(random).toHaveBeenCalledTimes(2);
    } finally {
      random.mockRestore();
    }
  });

  it('gives a port below the range the OS takes outgoing connections’ ports from', async () => {
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(ephemeralRangeStart());
    }
  });

  it('never hands out the same port twice in one process, though each is released after the check', async () => {
    const ports: number[] = [];
    for (let n = 0; n < 2_000; n++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
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
