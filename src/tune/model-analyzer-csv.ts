// Model Analyzer's metrics-model-inference.csv (model_analyzer result/result_table_manager.py @ 63a0fecc):
// one row per measurement, the variant in "Model Config Path" (a variant name such as
// add_sub_config_1, whose config is <output_model_repository_path>/<name>/config.pbtxt), throughput in
// "Throughput (infer/sec)" and latencies in milliseconds ("p99 Latency (ms)", ...), rounded to one
// decimal. Read by column name; rows grouped by variant, sorted by load.
import { quoted } from '../util/terminal-text.js';
import { CsvError, parseCsv } from './csv.js';
import type { PerfRow, PerfTable } from './perf-csv.js';

export function parseModelAnalyzerCsv(text: string, file: string): Map<string, PerfTable> {
  const { header, rows } = parseCsv(text, file);
  const index = new Map(header.cells.map((n, i) => [n, i]));
  const variantAt = index.get('Model Config Path');
  const loadName = index.has('Concurrency') ? 'Concurrency' : index.has('Request Rate') ? 'Request Rate' : undefined;
  const throughputAt = index.get('Throughput (infer/sec)');
  if (variantAt === undefined || !loadName || throughputAt === undefined) {
    throw new CsvError(
      file,
      header.line,
      1,
      'not a Model Analyzer metrics-model-inference.csv: it needs the columns "Model Config Path", "Concurrency" (or "Request Rate") and "Throughput (infer/sec)"',
    );
  }
  const latencyColumns = header.cells.flatMap((n, i): [string, number][] => {
    const m = /^(p\d+|Avg) Latency \(ms\)$/.exec(n);
    return m ? [[m[1] === 'Avg' ? 'avg' : m[1]!, i]] : [];
  });
  if (!latencyColumns.length)
    throw new CsvError(file, header.line, 1, 'the CSV has no latency column ("p99 Latency (ms)"); add perf_latency_p99 to --inference-output-fields');
  const tables = new Map<string, PerfTable>();
  for (const row of rows) {
    const num = (i: number, column: string): number => {
      // A concurrent multi-model row holds "aggregate, [per model]": the aggregate comes first.
      const cell = (row.cells[i] ?? '').split(/[,[]/)[0]!.trim();
      const n = Number(cell);
      if (cell === '' || !Number.isFinite(n))
        throw new CsvError(file, row.line, row.columns[i] ?? 1, `${quoted(column)} is ${quoted(row.cells[i] ?? '')}, not a number`);
      return n;
    };
    const variant = (row.cells[variantAt] ?? '').split(':')[0]!.trim();
    const perf: PerfRow = {
      load: num(index.get(loadName)!, loadName),
      throughput: num(throughputAt, 'Throughput (infer/sec)'),
      latencyUs: Object.fromEntries(latencyColumns.map(([n, i]) => [n, num(i, header.cells[i]!) * 1000])),
      line: row.line,
    };
    let t = tables.get(variant);
    if (!t)
      tables.set(
        variant,
        (t = { file, load: loadName === 'Concurrency' ? 'concurrency' : 'request rate', rows: [], latencies: latencyColumns.map(([n]) => n) }),
      );
    t.rows.push(perf);
  }
  for (const t of tables.values()) t.rows.sort((a, b) => a.load - b.load);
  return tables;
}
