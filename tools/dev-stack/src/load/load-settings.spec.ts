import { describe, expect, it } from 'vitest';
import { DEFAULT_LOAD, JOURNEYS, parseLoadSettings, pickJourney } from './load-settings.js';

describe('parseLoadSettings (SHOP_LOAD)', () => {
  it('takes "on" for the defaults: browse 10, search 4, view 6, cart 2, checkout 1, two a second for 15 minutes', () => {
    expect(parseLoadSettings('on')).toEqual(DEFAULT_LOAD);
    expect(DEFAULT_LOAD).toMatchObject({
      rate: 2,
      minutes: 15,
      weights: { browse: 10, search: 4, view: 6, cart: 2, checkout: 1 },
      browser: false,
    });
  });

  it('reads the rate, the minutes, the bound, the browser and each weight', () => {
    expect(parseLoadSettings('rate=5, minutes=0.5,concurrency=8,browser,checkout=3,search=0')).toEqual({
      rate: 5,
      minutes: 0.5,
      concurrency: 8,
      browser: true,
      weights: { browse: 10, search: 0, view: 6, cart: 2, checkout: 3 },
    });
    expect(parseLoadSettings('browser=false').browser).toBe(false);
  });

  it('refuses what is unbounded or unknown, saying what it takes', () => {
    expect(() => parseLoadSettings('rate=500')).toThrow(
      'SHOP_LOAD: "rate=500": rate must be above 0 and at most 50',
    );
    expect(() => parseLoadSettings('minutes=0')).toThrow('minutes must be above 0 and at most 240');
    expect(() => parseLoadSettings('concurrency=2.5')).toThrow(
      'concurrency must be a whole number from 1 to 200',
    );
    expect(() => parseLoadSettings('speed=3')).toThrow(
      'unknown name; names: rate, minutes, concurrency, browser, browse, search, view, cart, checkout',
    );
    expect(() => parseLoadSettings('rate')).toThrow('expected name=number');
    expect(() => parseLoadSettings('browse=0,search=0,view=0,cart=0,checkout=0')).toThrow(
      'at least one journey needs a weight above 0',
    );
  });
});

describe('pickJourney', () => {
  it('picks each journey in proportion to its weight', () => {
    const counts = Object.fromEntries(JOURNEYS.map((journey) => [journey, 0]));
    const steps = 2_300;
    for (let i = 0; i < steps; i += 1) counts[pickJourney(DEFAULT_LOAD.weights, (i + 0.5) / steps)]! += 1;
    expect(counts).toEqual({ browse: 1_000, search: 400, view: 600, cart: 200, checkout: 100 });
  });

  it('never picks a journey of weight 0', () => {
    const weights = { browse: 0, search: 1, view: 0, cart: 0, checkout: 1 };
    for (const roll of [0, 0.25, 0.49, 0.5, 0.75, 0.999])
      expect(['search', 'checkout']).toContain(pickJourney(weights, roll));
  });
});
