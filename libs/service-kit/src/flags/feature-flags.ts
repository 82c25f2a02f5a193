import { MetricsHook, SpanHook } from '@openfeature/open-telemetry-hooks';
import { FlagdProvider } from '@openfeature/flagd-provider';
import {
  type Client,
  type EvaluationDetails,
  type FlagValue,
  OpenFeature,
  ProviderEvents,
  StandardResolutionReasons,
} from '@openfeature/server-sdk';
import { FAULT_FLAGS, FAULT_FLAG_KEYS, FLAG_OFF_VARIANT, type FaultFlagKey } from '@shop/contracts';
import type { Logger } from 'pino';

/** Where a service reads its flags (`FLAGS_SOURCE`): flagd's sync service over gRPC, or a flag set file. */
export type FlagSource = { kind: 'grpc'; host: string; port: number } | { kind: 'file'; path: string };

/** `grpc://host:port` or `file:///absolute/path.json`, as `FLAGS_SOURCE` gives it. */
export function parseFlagSource(source: string): FlagSource {
  const url = new URL(source);
  if (url.protocol === 'file:') return { kind: 'file', path: decodeURIComponent(url.pathname) };
  if (url.protocol === 'grpc:' && url.hostname && url.port) {
    return { kind: 'grpc', host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port) };
  }
  throw new Error(`FLAGS_SOURCE must be grpc://host:port or file:///path, not ${source}`);
}

// A flag whose evaluation came out like this gives the same value to every evaluation of this process
// until the provider reports a change: its context is the same each time (the service's name).
const SETTLED = new Set<string>([
  StandardResolutionReasons.STATIC,
  StandardResolutionReasons.DEFAULT,
  StandardResolutionReasons.DISABLED,
  StandardResolutionReasons.ERROR,
]);

let domains = 0;

/** How often a service works out again which flags are off for it, besides when the provider says so. */
const RESETTLE_MS = 1_000;

/**
 * The fault flags as one service sees them, through OpenFeature and flagd's provider in in-process mode:
 * the flag set is synced from `FLAGS_SOURCE` (the data service's flagd sync service, or a file) and
 * evaluated here, so a switch reaches every replica within a second or two, without a restart.
 *
 * A flag that is on is evaluated through the SDK every time, with OpenTelemetry's hooks: a
 * `feature_flag.evaluation` span under the request's (the key, the variant and the provider as its
 * attributes, per the semantic conventions) and the `feature_flag_evaluation_*` counters. A flag that is
 * off, for this service and for good until the flag set changes, answers its off value at once: an off
 * flag costs a hot path (a cached product read) a set lookup, not the SDK's ~15 µs.
 */
export class FeatureFlags {
  private readonly context: { service: string };
  private readonly client?: Client;
  private readonly quiet = new Set<string>(FAULT_FLAG_KEYS);
  private readonly provider?: FlagdProvider;
  private settling: Promise<void> = Promise.resolve();
  private resettle?: NodeJS.Timeout;

  /** Flags that are all off, for tests and for a service started without `FLAGS_SOURCE`. */
  static allOff(service: string): FeatureFlags {
    return new FeatureFlags(service);
  }

  constructor(service: string, source?: FlagSource, logger?: Logger) {
    this.context = { service };
    if (!source) return;
    const domain = `${service}#${++domains}`;
    this.provider = new FlagdProvider(
      source.kind === 'file'
        ? { resolverType: 'in-process', offlineFlagSourcePath: source.path }
        : { resolverType: 'in-process', host: source.host, port: source.port, retryBackoffMaxMs: 2_000 },
      logger && flagdLogger(logger),
    );
    // The SDK's own lines (a provider that could not connect yet) go to the service's log, not the console.
    if (logger) OpenFeature.setLogger(flagdLogger(logger));
    // Not awaited: a service starts with every flag off and follows the flags once the source answers.
    OpenFeature.setProvider(domain, this.provider);
    this.client = OpenFeature.getClient(domain);
    this.client.addHooks(new SpanHook(), new MetricsHook());
    const probe = OpenFeature.getClient(domain);
    // One at a time, in the order the provider reported its changes.
    const settle = () => {
      this.settling = this.settling.then(() => this.settle(probe)).catch(() => undefined);
    };
    probe.addHandler(ProviderEvents.Ready, settle);
    probe.addHandler(ProviderEvents.ConfigurationChanged, settle);
    // And every second all the same: flagd's provider (0.16) never reports a change when its first
    // connection failed (the data service not up yet when this service started), though it does take the
    // new flag set; nine evaluations a second cost far less than one request.
    this.resettle = setInterval(settle, RESETTLE_MS);
    this.resettle.unref();
    // The provider retries by itself; the log says when the flags stop and start following their source.
    let following = false;
    probe.addHandler(ProviderEvents.Ready, () => {
      following = true;
      logger?.info({ source: describe(source) }, 'feature flags: following their source');
    });
    const lost = () => {
      if (following)
        logger?.warn({ source: describe(source) }, 'feature flags: source lost, keeping the last flags');
      following = false;
    };
    probe.addHandler(ProviderEvents.Stale, lost);
    probe.addHandler(ProviderEvents.Error, lost);
  }

  /** A `share` flag: whether this request is one of the share it fails. */
  async fails(key: FaultFlagKey): Promise<boolean> {
    const share = await this.number(key);
    return share > 0 && Math.random() < share;
  }

  /** A `delay` flag: waits its milliseconds (none when off). */
  async delay(key: FaultFlagKey): Promise<void> {
    const ms = await this.number(key);
    if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
  }

  number(key: FaultFlagKey): Promise<number> {
    if (!this.client || this.quiet.has(key)) return Promise.resolve(0);
    return this.client.getNumberValue(key, 0, this.context);
  }

  boolean(key: FaultFlagKey): Promise<boolean> {
    if (!this.client || this.quiet.has(key)) return Promise.resolve(false);
    return this.client.getBooleanValue(key, false, this.context);
  }

  string(key: FaultFlagKey): Promise<string> {
    if (!this.client || this.quiet.has(key)) return Promise.resolve('');
    return this.client.getStringValue(key, '', this.context);
  }

  /** Settles once the last flag set the provider reported has been read (which flags are off). */
  get settled(): Promise<void> {
    return this.settling;
  }

  async close(): Promise<void> {
    clearInterval(this.resettle);
    await this.provider?.onClose();
  }

  /** Re-reads which flags are off for this service, after the provider got a (new) flag set. */
  private async settle(probe: Client): Promise<void> {
    for (const key of FAULT_FLAG_KEYS) {
      const details = await evaluate(probe, key, this.context);
      const off = details.reason === StandardResolutionReasons.ERROR || details.variant === FLAG_OFF_VARIANT;
      if (off && SETTLED.has(details.reason ?? '')) this.quiet.add(key);
      else this.quiet.delete(key);
    }
  }
}

/** A flag's evaluation with the getter of its kind (a getter of another type answers a type mismatch). */
function evaluate(
  client: Client,
  key: FaultFlagKey,
  context: { service: string },
): Promise<EvaluationDetails<FlagValue>> {
  switch (FAULT_FLAGS[key].kind) {
    case 'switch':
      return client.getBooleanDetails(key, false, context);
    case 'service':
      return client.getStringDetails(key, '', context);
    default:
      return client.getNumberDetails(key, 0, context);
  }
}

function describe(source: FlagSource): string {
  return source.kind === 'file' ? source.path : `grpc://${source.host}:${source.port}`;
}

/**
 * flagd's provider logs through the service's logger at debug: it logs an error at every retry while its
 * source is away, which the provider events above report once.
 */
function flagdLogger(logger: Logger) {
  const child = logger.child({ component: 'flagd-provider' });
  const line = (...args: unknown[]) => child.debug({ detail: args.map(String) }, 'feature flags');
  return { error: line, warn: line, info: line, debug: line };
}
