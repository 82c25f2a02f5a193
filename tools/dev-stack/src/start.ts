import { join } from 'node:path';
import { startLoad } from './load/load-generator.js';
import { parseLoadSettings } from './load/load-settings.js';
import { REPO_ROOT, startStack } from './stack.js';
import { redactCredentials } from './stack/infrastructure.js';

/** A whole number from the environment, or a clear refusal naming the variable. */
function numberFromEnv(name: string, check: (value: number) => boolean): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw);
  if (!check(value)) throw new Error(`${name}="${raw}" is not valid`);
  return value;
}

/**
 * `npm start`: the whole shop on the documented ports, data kept under .data/, every part supervised
 * (restarted with backoff when it dies, as Kubernetes would), Ctrl-C stops it all. The README's runner
 * variables are read here: GATEWAY_PORT, GATEWAY_CONFIG, GATEWAY_RATE_LIMIT_FACTOR, MONGO_URL /
 * NATS_URL to use servers of your own instead of the embedded ones, SMTP_URL to send the shop's e-mail
 * through a server of your own instead of the mail catcher (Mailpit); the stack itself reads
 * SHOP_OBSERVABILITY (0: no Jaeger and VictoriaMetrics; else, when they are not built yet, they are
 * built in the background and attached once ready), SHOP_REPLICAS (`products=2,orders=2`: copies of
 * services behind the gateway) and SHOP_NATS_CLUSTER (3: clustered nats-server nodes). SHOP_LOAD (`on`, or
 * `rate=5,minutes=30,browser`) runs the load generator against the shop once it is up. Every other
 * variable reaches the services as it is.
 */
async function main(): Promise<void> {
  // Refused before anything starts, with what it takes.
  const loadSettings = process.env['SHOP_LOAD'] ? parseLoadSettings(process.env['SHOP_LOAD']) : undefined;
  const dataDir = join(REPO_ROOT, '.data');
  const stack = await startStack({
    ports: 'default',
    dataDir,
    supervise: true,
    gatewayPort: numberFromEnv('GATEWAY_PORT', (n) => Number.isInteger(n) && n > 0 && n < 65536),
    gatewayConfig: process.env['GATEWAY_CONFIG'] || undefined,
    rateLimitFactor: numberFromEnv('GATEWAY_RATE_LIMIT_FACTOR', (n) => Number.isFinite(n) && n > 0),
    mongoUrl: process.env['MONGO_URL'] || undefined,
    natsUrl: process.env['NATS_URL'] || undefined,
    smtpUrl: process.env['SMTP_URL'] || undefined,
    // The first run on a machine builds Jaeger and VictoriaMetrics while the shop already runs.
    observabilityBuild: 'background',
    log: (line) => console.log(`  ${new Date().toISOString().slice(11, 19)} ${line}`),
  });
  const { observability, mail } = stack;
  const smtpUrl = process.env['SMTP_URL'];
  const mailLine = mail
    ? `  Mail (Mailpit):             ${mail.webUrl}  (every e-mail the shop sends; SMTP ${mail.smtpUrl})`
    : smtpUrl
      ? `  Mail: sent through SMTP_URL (${redactCredentials(smtpUrl)})`
      : `  Mail: written as .eml files to ${stack.outboxDir} (no mail catcher: it is built where Go is installed)`;
  const addresses = (): string[] =>
    observability
      ? [
          `  Traces (Jaeger):            ${observability.jaegerUrl}  (API /api/traces?service=orders)`,
          `  Metrics (VictoriaMetrics):  ${observability.victoriaMetricsUrl}/vmui`,
          `  Alerts (vmalert):           ${observability.alertsUrl}/vmalert  (the shipped alert rules)`,
        ]
      : [];
  const seeing = !observability
    ? ['  Traces and metrics store: off (SHOP_OBSERVABILITY=0); each part still serves /metrics']
    : observability.building
      ? ['  Traces and metrics: building (first run only)…; their addresses follow when they run']
      : addresses();
  if (observability?.building) {
    void observability.running.then(
      () => console.log(['', '  Traces and metrics are running:', ...addresses(), ''].join('\n')),
      () => undefined,
    );
  }
  console.log(
    [
      '',
      `  The shop is running at ${stack.url}`,
      mailLine,
      ...seeing,
      `  Gateway metrics: ${stack.metricsUrls.gateway}; each service's on its port + 6000`,
      `  Logs: ${stack.logDir}`,
      `  Fault flags: ${stack.url}/fault-flags (admins; docs/observability.md, "Fault flags")`,
      '  Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
  const load = loadSettings
    ? await startLoad({
        url: stack.url,
        settings: loadSettings,
        log: (line) => console.log(`  ${new Date().toISOString().slice(11, 19)} ${line}`),
      })
    : undefined;
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    console.log('\n  Stopping...');
    await load?.stop();
    // stop() first tells every supervisor not to restart: a terminal's Ctrl-C has reached the parts too.
    await stack.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
