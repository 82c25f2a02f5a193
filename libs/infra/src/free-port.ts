import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

// Ports handed out by listen(0) come from the same ephemeral range the OS takes the source ports of
// outgoing connections from. A port picked that way and bound a moment later by another process
// (a service, the database) can be taken in between by any outgoing connection on the machine
// (EADDRINUSE at start-up, seen when a run starts while another one's connections linger). So ports
// are picked at random below that range, where the OS never assigns source ports, and checked free.
const FALLBACK_EPHEMERAL_LOW = 32_768;
const LOWEST = 10_000;
const ATTEMPTS = 50;

// A port handed out is free when picked but not held until its user binds it, so a second pick in the
// same process (a stack asks for twenty or so at once) could draw it again: EADDRINUSE at start-up, seen in
// CI. Each port is handed out once per process; the range below the ephemeral one has some 22,000.
const handedOut = new Set<number>();

// The Fetch standard's "bad ports" within the range: fetch (Node's and every browser's) refuses to
// connect to them ("TypeError: fetch failed", cause "bad port"), so a service given one cannot be
// reached by its tests. 10080 is the only one at or above LOWEST.
const FETCH_BAD_PORTS = new Set([10_080]);

/** The first port of the OS's ephemeral range (Linux's ip_local_port_range; elsewhere IANA's 49152). */
export function ephemeralRangeStart(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    const port = Number(low);
    return Number.isInteger(port) && port > 0 ? port : FALLBACK_EPHEMERAL_LOW;
  } catch {
    return process.platform === 'linux' ? FALLBACK_EPHEMERAL_LOW : 49_152;
  }
}

/** Binds `port` (0: the OS picks) on 127.0.0.1, then releases it; resolves the port, or null when taken. */
function tryPort(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(null));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(bound > 0 ? bound : null));
    });
  });
}

/** Whether `port` can be bound on 127.0.0.1 now (nothing listens on it there or on every address). */
export async function portIsFree(port: number): Promise<boolean> {
  return (await tryPort(port)) !== null;
}

/** Asks for a TCP port that is free on 127.0.0.1 now and outside the range of outgoing connections. */
export async function freePort(): Promise<number> {
  const high = ephemeralRangeStart() - 1;
  if (high - LOWEST >= 1_000) {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const candidate = LOWEST + Math.floor(Math.random() * (high - LOWEST + 1));
      if (handedOut.has(candidate) || FETCH_BAD_PORTS.has(candidate)) continue;
      const port = await tryPort(candidate);
      if (port !== null) {
        handedOut.add(port);
        return port;
      }
    }
  }
  const port = await tryPort(0);
  if (port === null) throw new Error('the OS did not assign a port');
  handedOut.add(port);
  return port;
}
