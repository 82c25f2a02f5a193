import { type ClientRequest, request } from 'node:http';
import type { Healthchecks } from '../../config/upstream.schema';
import type { Peer } from './balancer';
import type { HealthReport } from './target-health';

type ActiveConfig = Healthchecks['active'];
type Report = (peer: Peer, kind: HealthReport, threshold: number) => void;

/**
 * Kong's active health checks: every `healthy.interval` seconds each available peer, and every
 * `unhealthy.interval` seconds each unavailable one, gets `GET http_path` (Host: the target's name);
 * the answer's status, a failed connection or a timeout (`timeout` seconds) counts as in Kong. An
 * interval of 0 probes no peer in that state.
 */
export class ActiveChecks {
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly inFlight = new Map<Peer, ClientRequest>();
  private stopped = false;

  constructor(
    private readonly config: ActiveConfig,
    private readonly peers: readonly Peer[],
    private readonly report: Report,
  ) {
    const every = (seconds: number, available: boolean): void => {
      if (seconds <= 0) return;
      const timer = setInterval(() => {
        for (const peer of this.peers) {
          if (peer.health.available === available) this.probe(peer);
        }
      }, seconds * 1000);
      timer.unref();
      this.timers.push(timer);
    };
    every(config.healthy.interval, true);
    every(config.unhealthy.interval, false);
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    for (const probe of this.inFlight.values()) probe.destroy();
    this.inFlight.clear();
  }

  private probe(peer: Peer): void {
    if (this.inFlight.has(peer)) return;
    const { config } = this;
    let settled = false;
    const done = (kind: HealthReport | null): void => {
      if (settled) return;
      settled = true;
      this.inFlight.delete(peer);
      if (this.stopped) return;
      if (kind === 'success') this.report(peer, kind, config.healthy.successes);
      else if (kind === 'http_failure') this.report(peer, kind, config.unhealthy.http_failures);
      else if (kind === 'tcp_failure') this.report(peer, kind, config.unhealthy.tcp_failures);
      else if (kind === 'timeout') this.report(peer, kind, config.unhealthy.timeouts);
    };
    const probe = request(
      {
        host: peer.address.host,
        port: peer.address.port,
        path: config.http_path,
        headers: { host: peer.hostname },
        agent: false,
        timeout: config.timeout * 1000,
      },
      (res) => {
        res.resume();
        const status = res.statusCode ?? 0;
        if (config.healthy.http_statuses.includes(status)) done('success');
        else if (config.unhealthy.http_statuses.includes(status)) done('http_failure');
        else done(null);
      },
    );
    probe.on('timeout', () => {
      done('timeout');
      probe.destroy();
    });
    probe.on('error', () => done('tcp_failure'));
    probe.end();
    this.inFlight.set(peer, probe);
  }
}
