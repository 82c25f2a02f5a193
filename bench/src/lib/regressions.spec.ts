import { describe, expect, it } from 'vitest';
import { figure, type Figure } from './figure.js';
import { cpuRegressions, describeRegression, spreadOf } from './regressions.js';

const read = (
  cpuUs: Record<string, number>,
  cpuNoise?: Record<string, number>,
  id = 'reads.gateway-vs-bare',
) =>
  figure({
    id,
    section: 'reads',
    measured: { what: 'through the gateway', value: 2_000, unit: 'req/s' },
    reference: { what: 'bare', value: 19_000, unit: 'req/s' },
    better: 'higher',
    target: 0.35,
    cpuUs,
    ...(cpuNoise ? { cpuNoise } : {}),
  });

describe('cpuRegressions', () => {
  const record: Figure[] = [{ ...read({ gateway: 400, products: 200 }), run: 'Run of record' }];

  it('names the part that got costlier than the tolerance, with the run it is compared with', () => {
    const found = cpuRegressions(record, [read({ gateway: 520, products: 205 })]);
    expect(found).toEqual([
      {
        figure: 'reads.gateway-vs-bare',
        part: 'gateway',
        recordUs: 400,
        nowUs: 520,
        change: expect.closeTo(0.3, 5) as number,
        allowed: 0.15,
        recordRun: 'Run of record',
        machineFactor: 1,
      },
    ]);
    expect(describeRegression(found[0]!)).toBe(
      'reads.gateway-vs-bare: gateway 400 → 520 µs per request (+30 %, allowed +15 %)',
    );
  });

  it('lets a change within the tolerance pass, and cheaper parts', () => {
    expect(cpuRegressions(record, [read({ gateway: 459, products: 100 })])).toEqual([]);
    expect(cpuRegressions(record, [read({ gateway: 461, products: 100 })])).toHaveLength(1);
  });

  it('widens the tolerance by the larger noise either run measured for that part only', () => {
    const noisy = [read({ gateway: 520, products: 260 }, { gateway: 0.2 })];
    expect(cpuRegressions(record, noisy).map((regression) => regression.part)).toEqual(['products']);
    // Noise measured by the record counts too: +30 % passes within 15 % + 20 %, +40 % does not.
    const noisyRecord = [read({ gateway: 400, products: 200 }, { products: 0.2 })];
    expect(cpuRegressions(noisyRecord, [read({ gateway: 400, products: 260 })])).toEqual([]);
    expect(
      cpuRegressions(noisyRecord, [read({ gateway: 400, products: 280 })]).map((r) => r.allowed),
    ).toEqual([expect.closeTo(0.35, 5)]);
  });

  it('compares only what both runs measured: new figures and parts, and parts of record at 0, are left', () => {
    expect(cpuRegressions(record, [read({ gateway: 400, nats: 90 })])).toEqual([]);
    expect(cpuRegressions(record, [read({ gateway: 900 }, undefined, 'orders.place-vs-read')])).toEqual([]);
    expect(cpuRegressions([read({ gateway: 0 })], [read({ gateway: 50 })])).toEqual([]);
    expect(cpuRegressions([{ ...read({}), cpuUs: undefined }], [read({ gateway: 50 })])).toEqual([]);
  });
});

describe('cpuRegressions on another machine', () => {
  const withBare = (bare: number, parts: Record<string, number>, noise?: Record<string, number>) =>
    read({ 'bare server': bare, ...parts }, noise);
  const record = [withBare(25, { gateway: 400, products: 200 })];

  it('scales each part by what the bare server cost in each run before comparing', () => {
    // Three times slower everywhere: the code costs what it did.
    expect(cpuRegressions(record, [withBare(75, { gateway: 1_200, products: 600 })])).toEqual([]);
    // Three times slower, and the gateway costs a third more on top of that.
    const found = cpuRegressions(record, [withBare(75, { gateway: 1_600, products: 600 })]);
    expect(found.map((regression) => [regression.part, regression.machineFactor])).toEqual([['gateway', 3]]);
    expect(found[0]!.change).toBeCloseTo(1 / 3, 5);
    expect(describeRegression(found[0]!)).toBe(
      "reads.gateway-vs-bare: gateway 400 → 1600 µs per request (+33 %, allowed +15 %, on a machine where the bare server cost 3.00x the record's)",
    );
  });

  it("allows the yardstick's own noise, and scales nothing when a run has no yardstick", () => {
    const noisy = [withBare(75, { gateway: 1_500, products: 600 }, { 'bare server': 0.2 })];
    expect(cpuRegressions(record, noisy)).toEqual([]);
    expect(
      cpuRegressions(record, [read({ gateway: 1_200 })]).map((regression) => regression.machineFactor),
    ).toEqual([1]);
  });
});

describe('spreadOf', () => {
  it('is the difference of two passes over their mean', () => {
    expect(spreadOf(90, 110)).toBeCloseTo(0.2);
    expect(spreadOf(0, 0)).toBe(0);
  });
});
