// The hops the local gateway is compared with in the reads section (docs/performance.md, "Catalogue
// reads"), each in front of the same service: nginx, what Kong runs on, as a plain reverse proxy; and the
// plainest proxy Node can be (node:http both ways over kept-alive connections: no routing, plugins, log,
// metrics or spans), the floor of any gateway written in Node.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startProcess, toolPaths } from '@shop/infra';
import { processCpuMs } from './part-clocks.js';
import { passOn } from './pass-on.js';

/** A hop running in front of a service. */
export interface ReferenceHop {
  /** Its base URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** CPU ms its processes have used so far (nginx: the master and every worker). */
  cpuMs(): number;
  close(): Promise<void>;
}

/** The pids of `parent`'s children, from /proc (field 4 of a process's stat file is its parent). */
function childrenOf(parent: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent)
        children.push(Number(entry));
    } catch {
      // Gone between the listing and the read.
    }
  }
  return children;
}

/**
 * nginx's configuration for the comparison: a worker per core and kept-alive connections to the service,
 * as Kong's own defaults (`nginx_worker_processes = auto`, `upstream_keepalive_pool_size = 512`), and an
 * access line per request to a file, as Kong writes one (`proxy_access_log`) and the local gateway does.
 */
function nginxProxyConfig(options: { dir: string; port: number; upstreamPort: number }): string {
  const { dir, port, upstreamPort } = options;
  return `worker_processes auto;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 4096; }
http {
  access_log ${join(dir, 'access.log')} combined;
  upstream service { server 127.0.0.1:${upstreamPort}; keepalive 512; }
  server {
    listen 127.0.0.1:${port};
    # The load generator keeps its connections for a whole phase; nginx would close each after 1,000
    # requests (its default), and a request sent as it closes is an error, which fails the phase.
    keepalive_requests 10000000;
    location / {
      proxy_pass http://service;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
    }
  }
}
`;
}

/** nginx in front of the service on `upstreamPort`; ready once `readyPath` answers through it. */
export async function startNginxHop(upstreamPort: number, readyPath: string): Promise<ReferenceHop> {
  const nginx = toolPaths().nginx;
  if (!existsSync(nginx)) {
    throw new Error(
      `nginx is not installed at ${nginx}: the reads section compares the gateway with it (apt-get install nginx-light; npm test installs it too)`,
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'shop-bench-nginx-'));
  const port = await freePort();
  writeFileSync(join(dir, 'nginx.conf'), nginxProxyConfig({ dir, port, upstreamPort }));
  const url = `http://127.0.0.1:${port}`;
  const master = await startProcess({
    name: 'nginx (reads section)',
    command: nginx,
    args: ['-p', dir, '-e', join(dir, 'error.log'), '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'],
    readyUrl: `${url}${readyPath}`,
    timeoutMs: 15_000,
  }).catch((error: unknown) => {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  });
  // The workers are started before the first answer and live as long as the master.
  const pids = [master.pid, ...childrenOf(master.pid)];
  return {
    url,
    cpuMs: () => pids.reduce((sum, pid) => sum + processCpuMs(pid), 0),
    async close() {
      await master.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The plainest Node proxy in this process's main thread (where the bench runs the gateway): each request
 * goes on as it came over a kept-alive connection, and its answer comes back as it is.
 */
export async function startNodeHop(upstreamPort: number, cpuMs: () => number): Promise<ReferenceHop> {
  const agent = new Agent({ keepAlive: true, maxSockets: 512 });
  const service = new URL(`http://127.0.0.1:${upstreamPort}`);
  const server = createServer((incoming, outgoing) => passOn(service, incoming, outgoing, agent));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cpuMs,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
