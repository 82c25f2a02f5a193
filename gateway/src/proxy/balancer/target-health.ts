/**
 * What Kong's health checker (lua-resty-healthcheck) keeps per target: four counters and a health
 * with two in-between states. A success clears the failure counters, a failure clears the success
 * counter; a counter reaching its threshold sets the health. A threshold of 0 turns that counter off:
 * such a report changes nothing, not even the other counters.
 */
export type Health = 'healthy' | 'mostly_healthy' | 'mostly_unhealthy' | 'unhealthy';

export type HealthReport = 'success' | 'http_failure' | 'tcp_failure' | 'timeout';

export class TargetHealth {
  private state: Health = 'healthy';
  private readonly counters: Record<HealthReport, number> = {
    success: 0,
    http_failure: 0,
    tcp_failure: 0,
    timeout: 0,
  };

  /** Healthy and mostly healthy targets take traffic; unhealthy and mostly unhealthy ones do not. */
  get available(): boolean {
    return this.state === 'healthy' || this.state === 'mostly_healthy';
  }

  get health(): Health {
    return this.state;
  }

  /**
   * Counts one report against `threshold`; returns the new health when it flipped to healthy or
   * unhealthy, else undefined.
   */
  report(kind: HealthReport, threshold: number): 'healthy' | 'unhealthy' | undefined {
    if (threshold === 0) return undefined;
    const healthy = kind === 'success';
    // Successes of a fully healthy target and failures of a fully unhealthy one are not counted.
    if (healthy && this.state === 'healthy') return undefined;
    if (!healthy && this.state === 'unhealthy') return undefined;
    if (healthy) {
      this.counters.http_failure = 0;
      this.counters.tcp_failure = 0;
      this.counters.timeout = 0;
    } else {
      this.counters.success = 0;
    }
    this.counters[kind] += 1;
    if (this.counters[kind] >= threshold) {
      this.state = healthy ? 'healthy' : 'unhealthy';
      return this.state;
    }
    if (this.state === 'healthy' && !healthy) this.state = 'mostly_healthy';
    else if (this.state === 'unhealthy' && healthy) this.state = 'mostly_unhealthy';
    return undefined;
  }
}
