// perf_analyzer's `-f FILE` CSV (perf_analyzer src/report_writer.cc @ 263c5f6e, ReportWriter::GenerateReport):
// read by column name, because the set of columns depends on the run: `Concurrency` or `Request Rate`
// first; `Inferences/Second`; `Response Throughput` for decoupled models; the server-side columns
// (`Server Queue`, `Server Compute Input/Infer/Output`, ...) only when the server reports statistics;
// `p50/p90/p95/p99 latency` (and pP with --percentile=P); with --verbose-csv `Avg latency` (unless
// --percentile), `request/response`, `response wait` and the GPU metric cells. Every time is in
// microseconds; throughputs are doubles printed as C++ streams print them (`1.23457e+06`). Rows come
// sorted by throughput, not by load, so they are sorted here. Versions before 2023-08 ended verbose
// rows with a comma: an empty last cell is allowed.
import { quoted } from '../util/terminal-text.js';
import { CsvError, parseCsv, type CsvRow } from './csv.js';

export interface PerfRow {
  /** The concurrency, or the request rate. */
  load: number;
  /** Inferences per second (requests x batch size). */
  throughput: number;
  /** Responses per second, for decoupled models. */
  responseThroughput?: number;
  /** Latency by name: `p50`, `p90`, `p95`, `p99`, any pP, and `avg` (microseconds). */
  latencyUs: Record<string, number>;
  /** Server-side averages per request, in microseconds, when the server reported them. */
  server?: { queueUs: number; computeInputUs: number; computeInferUs: number; computeOutputUs: number };
  line: number;
}

export interface PerfTable {
  file: string;
  load: 'concurrency' | 'request rate';
  rows: PerfRow[];
  /** The latency names every row has (`p50`, ..., `avg` when present). */
  latencies: string[];
  /** The loads perf_analyzer found no stable measurement for (its output says so; perf-log.ts). */
  unstable?: number[];
}

const SERVER_COLUMNS = ['Server Queue', 'Server Compute Input', 'Server Compute Infer', 'Server Compute Output'] as const;

export function parsePerfCsv(text: string, file: string): PerfTable {
  const { header, rows } = parseCsv(text, file);
  const names = header.cells;
  // A trailing comma (older verbose CSVs) makes an empty last column name.
  while (names.length && names[names.length - 1] === '') names.pop();
  const index = new Map(names.map((n, i) => [n, i]));
  const loadName = index.has('Concurrency') ? 'Concurrency' : index.has('Request Rate') ? 'Request Rate' : undefined;
  if (!loadName)
    throw new CsvError(
      file,
      header.line,
      1,
      `not a perf_analyzer CSV: the first column is ${quoted(names[0] ?? '')}, not Concurrency or Request Rate (write it with perf_analyzer -f FILE)`,
    );
  if (!index.has('Inferences/Second')) throw new CsvError(file, header.line, 1, 'not a perf_analyzer CSV: it has no Inferences/Second column');
  const latencyColumns = names.flatMap((n, i): [string, number][] => {
    const m = /^p(\d+) latency$/.exec(n);
    return m ? [[`p${m[1]}`, i]] : n === 'Avg latency' ? [['avg', i]] : [];
  });
  if (!latencyColumns.length) throw new CsvError(file, header.line, 1, 'the CSV has no latency column (p50 latency, ..., p99 latency)');
  const serverAt = SERVER_COLUMNS.map((c) => index.get(c));
  const hasServer = serverAt.every((i) => i !== undefined);

  const number = (row: CsvRow, i: number, column: string): number => {
    const cell = row.cells[i];
    if (cell === undefined || cell === '')
      throw new CsvError(
        file,
        row.line,
        row.columns[i] ?? row.columns[row.columns.length - 1]!,
        `no value for ${quoted(column)} (the row has ${row.cells.length} cells, the header ${names.length})`,
      );
    const n = Number(cell);
    if (!Number.isFinite(n)) throw new CsvError(file, row.line, row.columns[i]!, `${quoted(column)} is ${quoted(cell)}, not a number`);
    return n;
  };
  const parsed = rows.map((row): PerfRow => {
    const extra = row.cells.slice(names.length);
    if (extra.some((c) => c !== ''))
      throw new CsvError(file, row.line, row.columns[names.length]!, `the row has ${row.cells.length} cells and the header ${names.length} columns`);
    if (row.cells.length < names.length)
      throw new CsvError(file, row.line, row.columns[row.columns.length - 1]!, `the row has ${row.cells.length} cells and the header ${names.length} columns`);
    const latencyUs = Object.fromEntries(latencyColumns.map(([n, i]) => [n, number(row, i, names[i]!)]));
    const out: PerfRow = {
      load: number(row, index.get(loadName)!, loadName),
      throughput: number(row, index.get('Inferences/Second')!, 'Inferences/Second'),
      latencyUs,
      line: row.line,
    };
    if (index.has('Response Throughput')) out.responseThroughput = number(row, index.get('Response Throughput')!, 'Response Throughput');
    if (hasServer) {
      const [q, ci, cf, co] = serverAt.map((i, k) => number(row, i, SERVER_COLUMNS[k]!)) as [number, number, number, number];
      out.server = { queueUs: q, computeInputUs: ci, computeInferUs: cf, computeOutputUs: co };
    }
    return out;
  });
  parsed.sort((a, b) => a.load - b.load);
  return { file, load: loadName === 'Concurrency' ? 'concurrency' : 'request rate', rows: parsed, latencies: latencyColumns.map(([n]) => n) };
}
