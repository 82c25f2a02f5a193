/** The shopper journeys the load generator runs, each chosen in proportion to its weight. */
export const JOURNEYS = ['browse', 'search', 'view', 'cart', 'checkout'] as const;
export type Journey = (typeof JOURNEYS)[number];

export interface LoadSettings {
  /** Journeys started per second (open loop: at this pace whatever the shop answers). */
  rate: number;
  /** How long it runs before it stops by itself. */
  minutes: number;
  /** How often each journey is chosen, relative to the others. */
  weights: Record<Journey, number>;
  /** At most this many journeys at once: past it, a journey due is skipped (and counted). */
  concurrency: number;
  /** Also a shopper in Chromium, walking home → product → cart every few seconds. */
  browser: boolean;
}

/** Browse 10, search 4, view a product 6, cart 2, checkout 1: two journeys a second for 15 minutes. */
export const DEFAULT_LOAD: LoadSettings = {
  rate: 2,
  minutes: 15,
  weights: { browse: 10, search: 4, view: 6, cart: 2, checkout: 1 },
  concurrency: 20,
  browser: false,
};

/** The bounds a setting must stay within: the generator is for watching the shop, not for breaking it. */
export const LOAD_BOUNDS = { rate: 50, minutes: 240, concurrency: 200 } as const;

/**
 * Reads `SHOP_LOAD` (or the load command's argument): `on` for the defaults, or a comma-separated list of
 * `rate=<journeys per second>`, `minutes=<n>`, `concurrency=<n>`, `browser` (or `browser=true`) and
 * `<journey>=<weight>` (`rate=5,minutes=30,checkout=3`). Anything else is refused with what is allowed.
 */
export function parseLoadSettings(text: string): LoadSettings {
  const settings: LoadSettings = { ...DEFAULT_LOAD, weights: { ...DEFAULT_LOAD.weights } };
  const trimmed = text.trim();
  if (trimmed === '' || trimmed === 'on' || trimmed === '1' || trimmed === 'true') return settings;
  for (const part of trimmed.split(',')) {
    const [rawName, rawValue] = part.split('=').map((each) => each.trim());
    const name = rawName ?? '';
    if (name === 'browser' && (rawValue === undefined || rawValue === 'true' || rawValue === 'false')) {
      settings.browser = rawValue !== 'false';
      continue;
    }
    const value = Number(rawValue);
    const refuse = (rule: string) => new Error(`SHOP_LOAD: "${part}": ${rule}`);
    if (rawValue === undefined || rawValue === '' || !Number.isFinite(value)) {
      throw refuse(
        `expected name=number; names: rate, minutes, concurrency, browser, ${JOURNEYS.join(', ')}`,
      );
    }
    if (name === 'rate') {
      if (value <= 0 || value > LOAD_BOUNDS.rate)
        throw refuse(`rate must be above 0 and at most ${LOAD_BOUNDS.rate}`);
      settings.rate = value;
    } else if (name === 'minutes') {
      if (value <= 0 || value > LOAD_BOUNDS.minutes)
        throw refuse(`minutes must be above 0 and at most ${LOAD_BOUNDS.minutes}`);
      settings.minutes = value;
    } else if (name === 'concurrency') {
      if (!Number.isInteger(value) || value < 1 || value > LOAD_BOUNDS.concurrency)
        throw refuse(`concurrency must be a whole number from 1 to ${LOAD_BOUNDS.concurrency}`);
      settings.concurrency = value;
    } else if ((JOURNEYS as readonly string[]).includes(name)) {
      if (value < 0) throw refuse('a weight must be 0 or more');
      settings.weights[name as Journey] = value;
    } else {
      throw refuse(`unknown name; names: rate, minutes, concurrency, browser, ${JOURNEYS.join(', ')}`);
    }
  }
  if (JOURNEYS.every((journey) => settings.weights[journey] === 0)) {
    throw new Error('SHOP_LOAD: at least one journey needs a weight above 0');
  }
  return settings;
}

/** The journey a number in [0, 1) picks, each in proportion to its weight. */
export function pickJourney(weights: Record<Journey, number>, roll: number): Journey {
  const total = JOURNEYS.reduce((sum, journey) => sum + weights[journey], 0);
  let at = roll * total;
  for (const journey of JOURNEYS) {
    at -= weights[journey];
    if (at < 0) return journey;
  }
  return JOURNEYS.findLast((journey) => weights[journey] > 0)!;
}
