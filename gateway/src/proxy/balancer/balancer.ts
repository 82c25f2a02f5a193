import type { Logger } from 'pino';
import type { UpstreamAddress } from '../../config/gateway-env';
import type { Healthchecks } from '../../config/upstream.schema';
import type { TargetHealthRow } from '../../telemetry/gateway-metrics';
import { formatAddress } from '../upstream-pools';
import { ActiveChecks } from './active-checks';
import { type HealthReport, TargetHealth } from './target-health';

/** One address a target resolved to: what the balancer picks and the health checks judge. */
export interface Peer {
  /** Where to connect. */
  readonly address: UpstreamAddress;
  /** The target as the file names it, `host:port`. */
  readonly target: string;
  /** The target's `host[:port]` (no port when 80): the Host header the service gets. */
  readonly hostHeader: string;
  /** The target's host name, as Kong's active checks send it. */
  readonly hostname: string;
  readonly weight: number;
  readonly health: TargetHealth;
}

interface WeightedPeer extends Peer {
  /** Smooth weighted round-robin's running score. */
  current: number;
}

/**
 * A Kong upstream's balancer: weighted round-robin over the peers that are available, with Kong's
 * passive health checks fed by the proxied traffic and, when configured, its active probes.
 */
export class Balancer {
  private readonly peers: WeightedPeer[];
  private readonly active?: ActiveChecks;
  /** Whether any check is on (Kong's test for creating a health checker at all). */
  readonly checked: boolean;

  constructor(
    readonly name: string,
    peers: readonly Omit<Peer, 'health'>[],
    private readonly checks: Healthchecks | null,
    private readonly logger: Logger,
  ) {
    this.peers = peers.map((peer) => ({ ...peer, health: new TargetHealth(), current: 0 }));
    this.checked =
      checks !== null &&
      (checks.active.healthy.interval > 0 ||
        checks.active.unhealthy.interval > 0 ||
        checks.passive.unhealthy.tcp_failures > 0 ||
        checks.passive.unhealthy.timeouts > 0 ||
        checks.passive.unhealthy.http_failures > 0);
    const active = checks?.active;
    if (active && (active.healthy.interval > 0 || active.unhealthy.interval > 0)) {
      this.active = new ActiveChecks(active, this.peers, (peer, kind, threshold) =>
        this.report(peer, kind, threshold, 'active'),
      );
    }
  }

  /**
   * The next peer in weighted round-robin among the available ones, or undefined when there is none
   * (Kong's "failure to get a peer from the ring-balancer"), or when the available weight is below
   * the upstream's `healthchecks.threshold` percent of the whole.
   */
  pick(): Peer | undefined {
    let total = 0;
    let availableWeight = 0;
    let best: WeightedPeer | undefined;
    for (const peer of this.peers) {
      total += peer.weight;
      if (peer.weight === 0 || !peer.health.available) continue;
      availableWeight += peer.weight;
      peer.current += peer.weight;
      if (!best || peer.current > best.current) best = peer;
    }
    const threshold = this.checks?.threshold ?? 0;
    if (!best || (threshold > 0 && availableWeight * 100 < threshold * total)) return undefined;
    best.current -= availableWeight;
    return best;
  }

  /** Passive check of a status the peer answered with (or the 502 the gateway answered in its place). */
  reportStatus(peer: Peer, status: number): void {
    const passive = this.checks?.passive;
    if (!passive) return;
    if (passive.healthy.http_statuses.includes(status)) {
      this.report(peer, 'success', passive.healthy.successes, 'passive');
    } else if (passive.unhealthy.http_statuses.includes(status)) {
      this.report(peer, 'http_failure', passive.unhealthy.http_failures, 'passive');
    }
  }

  /** Passive check of a connection that failed (refused, reset, closed). */
  reportTcpFailure(peer: Peer): void {
    const passive = this.checks?.passive;
    if (passive) this.report(peer, 'tcp_failure', passive.unhealthy.tcp_failures, 'passive');
  }

  /** Passive check of a connect or read timeout. */
  reportTimeout(peer: Peer): void {
    const passive = this.checks?.passive;
    if (passive) this.report(peer, 'timeout', passive.unhealthy.timeouts, 'passive');
  }

  /** Each peer's health, for `kong_upstream_target_health`. */
  targetHealth(): TargetHealthRow[] {
    return this.peers.map((peer) => ({
      upstream: this.name,
      target: peer.target,
      address: formatAddress(peer.address),
      state: !this.checked ? 'healthchecks_off' : peer.health.available ? 'healthy' : 'unhealthy',
    }));
  }

  /** Stops the active probes. */
  stop(): void {
    this.active?.stop();
  }

  private report(peer: Peer, kind: HealthReport, threshold: number, check: 'active' | 'passive'): void {
    const wasAvailable = peer.health.available;
    peer.health.report(kind, threshold);
    if (peer.health.available === wasAvailable) return;
    this.logger.warn(
      {
        upstream: this.name,
        target: peer.hostHeader,
        address: formatAddress(peer.address),
        health: peer.health.health,
        check,
        reason: kind,
      },
      peer.health.available ? 'upstream target healthy again' : 'upstream target unhealthy',
    );
  }
}
