import type { Logger } from 'pino';
import type { GatewayConfig, GatewayService, GatewayTarget } from '../../config/gateway-config';
import { GatewayEnvError, parseUpstreamAddress, type UpstreamAddress } from '../../config/gateway-env';
import type { TargetHealthRow } from '../../telemetry/gateway-metrics';
import { formatAddress } from '../upstream-pools';
import { Balancer, type Peer } from './balancer';

const hostHeader = (host: string, port: number): string => (port === 80 ? host : `${host}:${port}`);

/**
 * The balancer of every service: the upstream its host names (shared by all services naming it), or,
 * for a host that names no upstream, one of its own with that host as the only target and no health
 * checks, as Kong treats a plain host name.
 */
export class Balancers {
  private readonly byService = new Map<string, Balancer>();
  private readonly all: Balancer[] = [];
  /** The balancers of the file's upstreams (not of plain hosts), in file order. */
  private readonly upstreams: Balancer[] = [];

  /**
   * `addresses` says where a host is (GATEWAY_UPSTREAMS): each address of a target's host becomes a
   * peer of its own, with the address's port and the target's weight. A host not listed is
   * connected to by its name and the target's port.
   */
  constructor(
    config: GatewayConfig,
    addresses: ReadonlyMap<string, readonly UpstreamAddress[]>,
    logger: Logger,
  ) {
    const peersOf = (target: GatewayTarget): Omit<Peer, 'health'>[] =>
      (addresses.get(target.host) ?? [{ host: target.host, port: target.port }]).map((address) => ({
        address,
        target: `${target.host}:${target.port}`,
        hostHeader: hostHeader(target.host, target.port),
        hostname: target.host,
        weight: target.weight,
      }));
    const upstreams = new Map<string, Balancer>();
    for (const upstream of config.upstreams) {
      const balancer = new Balancer(
        upstream.name,
        upstream.targets.flatMap(peersOf),
        upstream.healthchecks,
        logger,
      );
      upstreams.set(upstream.name, balancer);
      this.all.push(balancer);
      this.upstreams.push(balancer);
    }
    for (const service of config.services) {
      let balancer = upstreams.get(service.host);
      if (!balancer) {
        const target = { host: service.host, port: service.port, weight: 100 };
        balancer = new Balancer(hostHeader(service.host, service.port), peersOf(target), null, logger);
        this.all.push(balancer);
      }
      this.byService.set(service.name, balancer);
    }
  }

  forService(service: GatewayService): Balancer {
    return this.byService.get(service.name)!;
  }

  /** The health of every target address of the file's upstreams (Kong reports no plain hosts). */
  targetHealth(): TargetHealthRow[] {
    return this.upstreams.flatMap((balancer) => balancer.targetHealth());
  }

  /** Stops every active health check. */
  stop(): void {
    for (const balancer of this.all) balancer.stop();
  }
}

/**
 * Checks the host → addresses overrides (GATEWAY_UPSTREAMS, the `upstreams` option): each name must be
 * a target host of an upstream, or the host of a service that names no upstream.
 */
export function resolveAddresses(
  overrides: Readonly<Record<string, string | readonly string[]>>,
  config: GatewayConfig,
): Map<string, UpstreamAddress[]> {
  const upstreamNames = new Set(config.upstreams.map((upstream) => upstream.name));
  const hosts = new Set([
    ...config.upstreams.flatMap((upstream) => upstream.targets.map((target) => target.host)),
    ...config.services.map((service) => service.host).filter((host) => !upstreamNames.has(host)),
  ]);
  const problems: string[] = [];
  const resolved = new Map<string, UpstreamAddress[]>();
  for (const [name, value] of Object.entries(overrides)) {
    const values = typeof value === 'string' ? [value] : value;
    const addresses: UpstreamAddress[] = [];
    for (const text of values) {
      const address = parseUpstreamAddress(text);
      if (!address) problems.push(`upstream override ${name}=${text} must be host:port`);
      else if (addresses.some((other) => formatAddress(other) === formatAddress(address))) {
        problems.push(`upstream override ${name} lists ${text} twice`);
      } else addresses.push(address);
    }
    if (!hosts.has(name)) {
      problems.push(
        `upstream override ${JSON.stringify(name)} names no target or service host in the config (${[...hosts].join(', ')})`,
      );
    } else if (addresses.length === 0 && values.length === 0) {
      problems.push(`upstream override ${name} lists no address`);
    } else resolved.set(name, addresses);
  }
  if (problems.length > 0) throw new GatewayEnvError(problems);
  return resolved;
}
