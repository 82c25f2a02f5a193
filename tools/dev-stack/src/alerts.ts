// The shipped alert rules (k8s/monitoring/prometheus-rule.yaml) evaluated beside the shop by VictoriaMetrics'
// vmalert against the stack's VictoriaMetrics, so an alert can be seen to fire (docs/observability.md,
// "Alerts locally"). Built and cached by libs/infra/ensure-tools.mjs with VictoriaMetrics.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ManagedProcess, ensureToolsInstalled, repoRoot, startProcess, toolPaths } from '@shop/infra';
import { parse, stringify } from 'yaml';
import { listeningPort } from './observability.js';

/** The PrometheusRule the cluster's Prometheus evaluates; vmalert reads its groups as they are. */
export const SHIPPED_RULES = join('k8s', 'monitoring', 'prometheus-rule.yaml');

const UNIT_SECONDS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3_600, d: 86_400, w: 604_800 };

/** A Prometheus duration (`5m`, `1h30m`, `3d`) in seconds. */
export function durationSeconds(text: string): number {
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/g)];
  if (parts.length === 0 || parts.map((part) => part[0]).join('') !== text) {
    throw new Error(`not a duration: ${text}`);
  }
  return parts.reduce((sum, part) => sum + Number(part[1]) * UNIT_SECONDS[part[2]!]!, 0);
}

/** Seconds as a duration vmalert and MetricsQL read: whole seconds, or milliseconds below one. */
function formatDuration(seconds: number): string {
  return seconds >= 1 ? `${Math.round(seconds)}s` : `${Math.max(1, Math.round(seconds * 1_000))}ms`;
}

interface RuleGroup {
  name: string;
  interval?: string;
  rules: { record?: string; alert?: string; expr: string; for?: string; [key: string]: unknown }[];
}

/**
 * An alert's threshold when it is an age: the expression compares an age gauge (`…_age_seconds`) with a
 * plain number at its end, as `max(shop_outbox_oldest_age_seconds) > 300`. Other gauges in seconds (a
 * latency, an event-loop delay) are not scaled: the same slowness is as slow at any speed-up.
 */
const AGE_THRESHOLD = /(\b[a-zA-Z_:][a-zA-Z0-9_:]*_age_seconds\b.*?)\s*(>=|<=|>|<)\s*(\d+(?:\.\d+)?)\s*$/s;

/**
 * The rule groups of a PrometheusRule with every time in them divided by `speedup`: each range in an
 * expression (`[1h]` → `[1m]` at 60), each `for`, each group's interval, and an alert's threshold when
 * it is a time (an age in seconds: `> 300` → `> 5`). Other thresholds and the names stay as they are,
 * so what fires is what would fire in the cluster, `speedup` times sooner. 1 leaves them as shipped.
 */
export function scaledRuleGroups(prometheusRule: unknown, speedup: number): { groups: RuleGroup[] } {
  const groups = (prometheusRule as { spec?: { groups?: RuleGroup[] } }).spec?.groups;
  if (!Array.isArray(groups)) throw new Error('not a PrometheusRule with spec.groups');
  if (speedup === 1) return { groups };
  const scale = (duration: string) => formatDuration(durationSeconds(duration) / speedup);
  const scaleExpression = (rule: RuleGroup['rules'][number]) => {
    const ranges = rule.expr.replace(/\[([0-9a-z.]+)\]/g, (_, duration: string) => `[${scale(duration)}]`);
    if (!rule.alert) return ranges;
    return ranges.replace(
      AGE_THRESHOLD,
      (_, compared: string, operator: string, seconds: string) =>
        `${compared} ${operator} ${Number(seconds) / speedup}`,
    );
  };
  return {
    groups: groups.map((group) => ({
      ...group,
      ...(group.interval && { interval: scale(group.interval) }),
      rules: group.rules.map((rule) => ({
        ...rule,
        expr: scaleExpression(rule),
        ...(rule.for && { for: scale(rule.for) }),
      })),
    })),
  };
}

/** One alert as vmalert answers it (`/api/v1/alerts`). */
export interface ActiveAlert {
  name: string;
  state: 'pending' | 'firing';
  labels: Record<string, string>;
  value: string;
}

/** The alerts vmalert has pending or firing now. */
export async function activeAlerts(vmalertUrl: string): Promise<ActiveAlert[]> {
  const response = await fetch(`${vmalertUrl}/api/v1/alerts`);
  if (!response.ok) throw new Error(`vmalert answered ${response.status}`);
  const body = (await response.json()) as {
    data: {
      alerts: { name: string; state: ActiveAlert['state']; labels: Record<string, string>; value: string }[];
    };
  };
  return body.data.alerts.map(({ name, state, labels, value }) => ({ name, state, labels, value }));
}

/**
 * Starts vmalert on the shipped rules (scaled by `speedup`), reading from and writing its recording rules
 * back to VictoriaMetrics at `victoriaMetricsUrl`, evaluating every `evaluationSeconds`; no Alertmanager
 * (the alerts are read from its API and UI). `port` 0 lets it pick one, answered as `port`.
 */
export async function startVmalert(options: {
  victoriaMetricsUrl: string;
  port: number;
  dir: string;
  logFile: string;
  speedup?: number;
  evaluationSeconds?: number;
}): Promise<ManagedProcess & { port: number }> {
  ensureToolsInstalled({ observability: true });
  mkdirSync(options.dir, { recursive: true });
  const speedup = options.speedup ?? 1;
  const rulesFile = join(options.dir, 'rules.yaml');
  const shipped = parse(readFileSync(join(repoRoot(), SHIPPED_RULES), 'utf8')) as unknown;
  writeFileSync(rulesFile, stringify(scaledRuleGroups(shipped, speedup)));
  const { ready: port, ...vmalert } = await startProcess({
    name: 'vmalert',
    command: toolPaths().vmalert,
    args: [
      `-rule=${rulesFile}`,
      `-datasource.url=${options.victoriaMetricsUrl}`,
      `-remoteWrite.url=${options.victoriaMetricsUrl}`,
      `-remoteRead.url=${options.victoriaMetricsUrl}`,
      `-evaluationInterval=${formatDuration(options.evaluationSeconds ?? Math.max(1, 30 / speedup))}`,
      '-notifier.blackhole',
      `-httpListenAddr=127.0.0.1:${options.port}`,
    ],
    readyWhen: listeningPort,
    timeoutMs: 30_000,
    logFile: options.logFile,
    signalOnExit: 'SIGTERM',
  });
  return { ...vmalert, port };
}
