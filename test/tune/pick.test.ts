// pick over measured rows: the chosen point never exceeds the budget and is the best throughput within
// it (a property over random measurements), the ranking is by throughput within the budget, a load
// perf_analyzer found no stable measurement for is never chosen and is named, and the knee.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PerfRow, PerfTable } from '../../src/tune/perf-csv.js';
import { kneeOf, pick } from '../../src/tune/pick.js';

const table = (rows: [load: number, throughput: number, p99Us: number][]): PerfTable => ({
  file: 'perf.csv',
  load: 'concurrency',
  latencies: ['p99'],
  rows: rows.map(([load, throughput, p99], i): PerfRow => ({ load, throughput, latencyUs: { p99 }, line: i + 2 })),
});

describe('pick', () => {
  it("takes each variant's best throughput within the budget and ranks by it, not by throughput beyond it", () => {
    const r = pick(
      new Map([
        // Fast beyond the budget, slower within it.
        [
          'wide',
          {
            table: table([
              [1, 100, 5000],
              [4, 300, 15000],
              [8, 900, 40000],
            ]),
            settings: { instances: 1 },
          },
        ],
        [
          'steady',
          {
            table: table([
              [1, 120, 4000],
              [4, 400, 12000],
              [8, 450, 30000],
            ]),
            settings: { instances: 2 },
          },
        ],
      ]),
      'p99',
      20_000,
    );
    expect(r.best?.variant).toBe('steady');
    expect(r.variants.map((v) => [v.variant, v.chosen?.load, v.chosen?.throughput])).toEqual([
      ['steady', 4, 400],
      ['wide', 4, 300],
    ]);
  });

  it('takes the best throughput within the budget, not the highest concurrency (689.8 at 1 over 540.2 at 3)', () => {
    // Measured on a busy 2-core machine: a higher concurrency served less.
    const r = pick(
      new Map([
        [
          'classifier_d0_i2',
          {
            table: table([
              [1, 689.8, 6000],
              [2, 610.4, 9000],
              [3, 540.2, 14000],
            ]),
            settings: { instances: 2 },
          },
        ],
      ]),
      'p99',
      20_000,
    );
    expect([r.best?.variant, r.best?.chosen?.load, r.best?.chosen?.throughput]).toEqual(['classifier_d0_i2', 1, 689.8]);
    expect(r.explanation[0]).toContain('serves 689.8 infer/sec at concurrency 1');
  });

  it('never picks a load perf_analyzer found no stable measurement for, and says so', () => {
    const unstable: PerfTable = {
      ...table([
        [1, 300, 5000],
        [4, 900, 9000],
      ]),
      unstable: [4],
    };
    const r = pick(
      new Map([
        ['fast_but_unstable', { table: unstable, settings: { instances: 2 } }],
        [
          'steady',
          {
            table: table([
              [1, 280, 5000],
              [4, 700, 9000],
            ]),
            settings: { instances: 1 },
          },
        ],
        ['never_stable', { table: { ...table([]), unstable: [1, 4] }, settings: { instances: 1 } }],
      ]),
      'p99',
      20_000,
    );
    expect(r.best?.variant).toBe('steady');
    expect(r.variants.map((v) => [v.variant, v.chosen?.load, v.unstable])).toEqual([
      ['steady', 4, []],
      ['fast_but_unstable', 1, [4]],
      ['never_stable', undefined, [1, 4]],
    ]);
    expect(r.explanation.join('\n')).toContain(
      'Not counted: perf_analyzer found no stable measurement for fast_but_unstable at concurrency 4; never_stable at concurrency 1, 4.',
    );
  });

  it('no variant within the budget: no best, the closest first', () => {
    const r = pick(
      new Map([
        ['a', { table: table([[1, 10, 9000]]), settings: {} }],
        ['b', { table: table([[1, 10, 7000]]), settings: {} }],
      ]),
      'p99',
      5000,
    );
    expect(r.best).toBeUndefined();
    expect(r.variants[0]!.variant).toBe('b');
  });

  it('the knee: where latency grows more than twice as fast as throughput', () => {
    expect(
      kneeOf(
        table([
          [1, 100, 1000],
          [2, 190, 1100],
          [4, 360, 1300],
          [8, 400, 4000],
        ]).rows,
        'p99',
      ),
    ).toBe(4);
    expect(
      kneeOf(
        table([
          [1, 100, 1000],
          [2, 200, 2000],
        ]).rows,
        'p99',
      ),
    ).toBeUndefined();
  });

  it('property: the chosen point is within the budget, and has the best throughput of the points that are', () => {
    const rows = fc.array(fc.tuple(fc.integer({ min: 1, max: 64 }), fc.double({ min: 0, max: 1e5, noNaN: true }), fc.integer({ min: 1, max: 200_000 })), {
      minLength: 1,
      maxLength: 12,
    });
    fc.assert(
      fc.property(fc.array(rows, { minLength: 1, maxLength: 5 }), fc.integer({ min: 1, max: 200_000 }), (variants, budget) => {
        const tables = new Map(
          variants.map((v, i) => {
            const byLoad = [...new Map(v.map((r) => [r[0], r])).values()].sort((a, b) => a[0] - b[0]);
            return [`v${i}`, { table: table(byLoad), settings: {} }] as const;
          }),
        );
        const r = pick(tables, 'p99', budget);
        for (const v of r.variants) {
          const within = v.rows.filter((row) => row.latencyUs.p99! <= budget);
          if (!v.chosen) expect(within).toEqual([]);
          else {
            expect(v.chosen.latencyUs).toBeLessThanOrEqual(budget);
            expect(v.chosen.throughput).toBe(Math.max(...within.map((w) => w.throughput)));
          }
        }
        if (r.best) expect(r.best.chosen!.throughput).toBe(Math.max(...r.variants.filter((v) => v.chosen).map((v) => v.chosen!.throughput)));
      }),
      { numRuns: 300 },
    );
  });
});
