import { Pool } from 'undici';
import type { UpstreamAddress } from '../config/gateway-env';

/** `host:port`, with IPv6 hosts in brackets. */
export function formatAddress({ host, port }: UpstreamAddress): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/**
 * Kept-alive connection pools, one per upstream address and connect timeout, as Kong keeps its
 * upstream keepalive pool. undici's pools are used because its client costs a third of Node's
 * `http.request` per proxied request (measured in bench/; docs/performance.md).
 */
export class UpstreamPools {
  private readonly pools = new Map<string, Pool>();

  get(address: UpstreamAddress, connectTimeoutMs: number): Pool {
    const origin = `http://${formatAddress(address)}`;
    const key = `${origin} ${connectTimeoutMs}`;
    let pool = this.pools.get(key);
    if (!pool) {
      pool = new Pool(origin, { connectTimeout: connectTimeoutMs });
      this.pools.set(key, pool);
    }
    return pool;
  }

  /** Closes every connection, cutting requests still in flight. */
  async destroy(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((pool) => pool.destroy()));
  }
}
