import { FAULT_FLAGS, FAULT_FLAG_KEYS, FLAG_OFF_VARIANT, type FaultFlagKind } from '@shop/contracts';
import { z } from 'zod';
import definitionsFile from './shop.flagd.json';

const variantValue = z.union([z.string(), z.number(), z.boolean()]);

/** One flag as flagd's format defines it (https://flagd.dev/reference/flag-definitions/), as far as the shop uses it. */
const flagDefinition = z
  .object({
    state: z.enum(['ENABLED', 'DISABLED']),
    variants: z.record(z.string().min(1), variantValue),
    defaultVariant: z.string().min(1),
    targeting: z.record(z.string(), z.unknown()).optional(),
    metadata: z.object({ description: z.string().min(1) }).catchall(z.unknown()),
  })
  .refine((flag) => flag.defaultVariant in flag.variants, 'defaultVariant must name one of the variants')
  .refine(
    (flag) => FLAG_OFF_VARIANT in flag.variants,
    `every fault flag needs a variant named "${FLAG_OFF_VARIANT}"`,
  );

const flagSet = z.object({
  $schema: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  flags: z.record(z.string(), flagDefinition),
});

export type FlagDefinition = z.infer<typeof flagDefinition>;
export type FlagSet = z.infer<typeof flagSet>;
export type VariantValue = z.infer<typeof variantValue>;

const KIND_OF_VALUE: Record<FaultFlagKind, (value: VariantValue) => boolean> = {
  share: (value) => typeof value === 'number' && value >= 0 && value <= 1,
  delay: (value) => typeof value === 'number' && Number.isInteger(value) && value >= 0,
  bytes: (value) => typeof value === 'number' && Number.isInteger(value) && value >= 0,
  switch: (value) => typeof value === 'boolean',
  service: (value) => typeof value === 'string',
};

/**
 * Checks a flag set against flagd's format and against the shop's fault flags: exactly the flags of
 * `FAULT_FLAGS`, each value of its kind, and `off` giving the value that changes nothing (0, false, '').
 * Answers the problems, none for a valid set.
 */
export function flagSetProblems(candidate: unknown): string[] {
  const parsed = flagSet.safeParse(candidate);
  if (!parsed.success) return parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  const problems: string[] = [];
  const defined = Object.keys(parsed.data.flags);
  for (const key of FAULT_FLAG_KEYS) if (!defined.includes(key)) problems.push(`${key}: not defined`);
  for (const [key, flag] of Object.entries(parsed.data.flags)) {
    const fault = FAULT_FLAGS[key as keyof typeof FAULT_FLAGS] as { kind: FaultFlagKind } | undefined;
    if (!fault) {
      problems.push(`${key}: not a fault flag of the shop (FAULT_FLAGS)`);
      continue;
    }
    for (const [variant, value] of Object.entries(flag.variants)) {
      if (!KIND_OF_VALUE[fault.kind](value))
        problems.push(`${key}.${variant}: ${JSON.stringify(value)} is not a ${fault.kind}`);
    }
    if (flag.variants[FLAG_OFF_VARIANT] !== NO_EFFECT[fault.kind]) {
      problems.push(`${key}.${FLAG_OFF_VARIANT}: must be ${JSON.stringify(NO_EFFECT[fault.kind])}`);
    }
    if (flag.defaultVariant !== FLAG_OFF_VARIANT) problems.push(`${key}: must be off by default`);
  }
  return problems;
}

/** The value of each kind that changes nothing: what `off` gives, and what a service uses with no flags. */
export const NO_EFFECT: Record<FaultFlagKind, VariantValue> = {
  share: 0,
  delay: 0,
  bytes: 0,
  switch: false,
  service: '',
};

/** The shop's flag definitions (shop.flagd.json), checked; a broken file stops the service at start. */
export function shopFlagSet(): FlagSet {
  const problems = flagSetProblems(definitionsFile);
  if (problems.length > 0)
    throw new Error(`shop.flagd.json is not a valid flag set:\n  ${problems.join('\n  ')}`);
  return flagSet.parse(definitionsFile);
}
