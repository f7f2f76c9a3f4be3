// pick over measured rows: the chosen point never exceeds the budget (a property over random
// measurements), the ranking is by throughput within the budget, and the knee.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PerfRow, PerfTable } from '../../src/tune/perf-csv.js';
import { kneeOf, pick } from '../../src/tune/pick.js';

const table = (rows: [load: number, throughput: number, p99Us: number][]): PerfTable => ({
  file: 'perf.csv', load: 'concurrency', latencies: ['p99'],
  rows: rows.map(([load, throughput, p99], i): PerfRow => ({ load, throughput, latencyUs: { p99 }, line: i + 2 })),
});

describe('pick', () => {
  it('takes each variant\'s highest concurrency within the budget and ranks by throughput there, not beyond it', () => {
    const r = pick(new Map([
      // Fast beyond the budget, slower within it.
      ['wide', { table: table([[1, 100, 5000], [4, 300, 15000], [8, 900, 40000]]), settings: { instances: 1 } }],
      ['steady', { table: table([[1, 120, 4000], [4, 400, 12000], [8, 450, 30000]]), settings: { instances: 2 } }],
    ]), 'p99', 20_000);
    expect(r.best?.variant).toBe('steady');
    expect(r.variants.map((v) => [v.variant, v.chosen?.load, v.chosen?.throughput])).toEqual([['steady', 4, 400], ['wide', 4, 300]]);
  });

  it('no variant within the budget: no best, the closest first', () => {
    const r = pick(new Map([
      ['a', { table: table([[1, 10, 9000]]), settings: {} }],
      ['b', { table: table([[1, 10, 7000]]), settings: {} }],
    ]), 'p99', 5000);
    expect(r.best).toBeUndefined();
    expect(r.variants[0]!.variant).toBe('b');
  });

  it('the knee: where latency grows more than twice as fast as throughput', () => {
    expect(kneeOf(table([[1, 100, 1000], [2, 190, 1100], [4, 360, 1300], [8, 400, 4000]]).rows, 'p99')).toBe(4);
    expect(kneeOf(table([[1, 100, 1000], [2, 200, 2000]]).rows, 'p99')).toBeUndefined();
  });

  it('property: the chosen point is within the budget, and is the highest load that is', () => {
    const rows = fc.array(fc.tuple(fc.integer({ min: 1, max: 64 }), fc.double({ min: 0, max: 1e5, noNaN: true }), fc.integer({ min: 1, max: 200_000 })), { minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(fc.array(rows, { minLength: 1, maxLength: 5 }), fc.integer({ min: 1, max: 200_000 }), (variants, budget) => {
        const tables = new Map(variants.map((v, i) => {
          const byLoad = [...new Map(v.map((r) => [r[0], r])).values()].sort((a, b) => a[0] - b[0]);
          return [`v${i}`, { table: table(byLoad), settings: {} }] as const;
        }));
        const r = pick(tables, 'p99', budget);
        for (const v of r.variants) {
          const within = v.rows.filter((row) => row.latencyUs.p99! <= budget);
          if (!v.chosen) expect(within).toEqual([]);
          else {
            expect(v.chosen.latencyUs).toBeLessThanOrEqual(budget);
            expect(v.chosen.load).toBe(Math.max(...within.map((w) => w.load)));
          }
        }
        if (r.best) expect(r.best.chosen!.throughput).toBe(Math.max(...r.variants.filter((v) => v.chosen).map((v) => v.chosen!.throughput)));
      }),
      { numRuns: 300 },
    );
  });
});
