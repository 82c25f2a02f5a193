import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FAULT_FLAGS, type FaultFlagKey } from '@shop/contracts';
import { until } from '@shop/testing';
import type { FeatureFlags } from '../src/flags/feature-flags';

type Variants = Record<string, string | number | boolean>;

/**
 * A flag set file in flagd's format for a service's test, read as `FLAGS_SOURCE=file://…` (the provider's
 * file mode; the cluster syncs the same set from the data service). Each flag starts at `off`.
 */
export interface FlagSetFile {
  /** The FLAGS_SOURCE of a service that reads it. */
  source: string;
  /** Writes the set with these variants chosen (every other flag off). */
  choose(chosen: Partial<Record<FaultFlagKey, string>>): void;
  /**
   * Chooses, then waits until `flags` (the service's: its harness's `flags`, or `app.get(FeatureFlags)`) gives
   * each chosen flag its variant's value and has worked out which flags are off: the provider looks at the
   * file every 5 s.
   */
  switchTo(flags: FeatureFlags, chosen: Partial<Record<FaultFlagKey, string>>): Promise<void>;
  remove(): void;
}

/** The flags of the set and their variants (each needs `off`). */
export function flagSetFile(variants: Partial<Record<FaultFlagKey, Variants>>): FlagSetFile {
  const dir = mkdtempSync(join(tmpdir(), 'flags-'));
  const file = join(dir, 'flags.json');
  const choose = (chosen: Partial<Record<FaultFlagKey, string>>) => {
    const flags = Object.fromEntries(
      Object.entries(variants).map(([key, values]) => [
        key,
        { state: 'ENABLED', variants: values, defaultVariant: chosen[key as FaultFlagKey] ?? 'off' },
      ]),
    );
    writeFileSync(file, JSON.stringify({ flags }));
  };
  const valueOf = (flags: FeatureFlags, key: FaultFlagKey): Promise<unknown> => {
    const kind = FAULT_FLAGS[key].kind;
    return kind === 'switch'
      ? flags.boolean(key)
      : kind === 'service'
        ? flags.string(key)
        : flags.number(key);
  };
  choose({});
  return {
    source: `file://${file}`,
    choose,
    async switchTo(flags, chosen) {
      choose(chosen);
      for (const [key, values] of Object.entries(variants) as [FaultFlagKey, Variants][]) {
        const wanted = values[chosen[key] ?? 'off'];
        await until(async () => (await valueOf(flags, key)) === wanted, 20_000);
      }
      await flags.settled;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
