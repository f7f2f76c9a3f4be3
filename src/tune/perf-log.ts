// What perf_analyzer prints when a load gives no stable measurement. perf_analyzer 2.51 (r24.10,
// src/inference_profiler.cc, InferenceProfiler::ProfileHelper) prints "Failed to obtain stable
// measurement within <max-trials> measurement windows for concurrency <c>. Please try to increase the
// --measurement-interval." (or "for request rate <r>"), then "Failed to obtain stable measurement." and
// exits 2 without writing its -f CSV (seen with the real 2.51 binary). Read linearly, line by line.

export interface Unstable {
  load: number;
  /** The measurement windows it tried. */
  windows: number;
}

const UNSTABLE = /^Failed to obtain stable measurement within (\d+) measurement windows for (?:concurrency|request rate) (\d+(?:\.\d+)?)\b/;

/** The loads perf_analyzer's output (stdout and stderr together) names as unstable. */
export function unstableLoads(output: string): Unstable[] {
  const found: Unstable[] = [];
  for (const line of output.split('\n')) {
    const m = UNSTABLE.exec(line.trim());
    if (m) found.push({ windows: Number(m[1]), load: Number(m[2]) });
  }
  return found;
}

/** Whether perf_analyzer stopped because a load was unstable (its closing line). */
export const stoppedUnstable = (output: string): boolean => /^Failed to obtain stable measurement\.?$/m.test(output.replace(/\r/g, ''));
