// measureLevel, one perf_analyzer run per concurrency level of tune run, with a process runner that
// stands in for perf_analyzer (the real one runs in test/server/tune-real-triton.test.ts): the run's one
// abort signal keeps no listener of a finished level (Node warns past 10 of them: MaxListenersExceededWarning).
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { measureLevel } from '../../src/tune/perf-analyzer.js';
import type { ProcessRunner } from '../../src/verify/process-runner.js';

/** A perf_analyzer that exits at once, as one that fails (no CSV) does. */
const exitsAtOnce: ProcessRunner = {
  run: () => Promise.reject(new Error('not used')),
  start: () => ({ lines: ['error: no server'], exited: Promise.resolve({ exitCode: 1, notFound: false }), hasExited: () => true, kill: () => undefined }),
};

describe('measureLevel', () => {
  it("leaves no listener on the run's abort signal once a level is done", async () => {
    const run = new AbortController();
    for (let c = 1; c <= 12; c++) {
      const level = await measureLevel({
        perfAnalyzer: 'perf_analyzer',
        model: 'm',
        url: '127.0.0.1:8000',
        concurrency: c,
        measurementIntervalMs: 100,
        percentile: 99,
        csvFile: '/nonexistent/x.csv',
        runner: exitsAtOnce,
        signal: run.signal,
      });
      expect(level.kind).toBe('failed');
    }
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
  });
});
