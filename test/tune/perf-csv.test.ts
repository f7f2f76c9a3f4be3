// perf_analyzer's -f CSV in the forms its writer produces (perf_analyzer src/report_writer.cc @ 263c5f6e,
// ReportWriter::GenerateReport, lines 69-239: the header by mode, rows sorted by throughput, times in
// microseconds, throughputs as C++ streams print doubles), and Model Analyzer's
// metrics-model-inference.csv (model_analyzer result/result_table_manager.py; the golden file
// tests/common/single-model-ckpt/golden-metrics-model-inference.csv).
import { describe, expect, it } from 'vitest';
import { parseModelAnalyzerCsv } from '../../src/tune/model-analyzer-csv.js';
import { parsePerfCsv } from '../../src/tune/perf-csv.js';

// The documented example (perf_analyzer docs/measurements_metrics.md): server statistics on, not
// decoupled, no response cache; rows in increasing throughput, so concurrency 1, 3, 4, 2.
const DOCUMENTED = `Concurrency,Inferences/Second,Client Send,Network+Server Send/Recv,Server Queue,Server Compute Input,Server Compute Infer,Server Compute Output,Client Recv,p50 latency,p90 latency,p95 latency,p99 latency
1,69.2,225,2148,64,206,11781,19,0,13891,18795,19753,21018
3,84.2,237,1768,21673,209,11742,17,0,35398,43984,47085,51701
4,84.2,279,1604,33669,233,11731,18,1,47045,56545,59225,64886
2,87.2,235,1973,9151,190,11346,17,0,21874,28557,29768,34766
`;

describe('parsePerfCsv', () => {
  it('reads the documented form by column name, sorted by concurrency, times in microseconds', () => {
    const t = parsePerfCsv(DOCUMENTED, 'perf.csv');
    expect(t.load).toBe('concurrency');
    expect(t.rows.map((r) => r.load)).toEqual([1, 2, 3, 4]);
    expect(t.latencies).toEqual(['p50', 'p90', 'p95', 'p99']);
    expect(t.rows[1]).toMatchObject({ load: 2, throughput: 87.2, latencyUs: { p99: 34766 }, server: { queueUs: 9151, computeInferUs: 11346 }, line: 5 });
  });

  it('without server statistics, for a decoupled model, in request-rate mode, verbose with an old trailing comma, and %g numbers', () => {
    const noServer = parsePerfCsv(
      'Concurrency,Inferences/Second,Client Send,Client Recv,p50 latency,p90 latency,p95 latency,p99 latency\n2,1.23457e+06,10,5,100,200,300,400\n',
      'a.csv',
    );
    expect(noServer.rows[0]).toMatchObject({ throughput: 1234570, latencyUs: { p99: 400 } });
    expect(noServer.rows[0]!.server).toBeUndefined();
    const decoupled = parsePerfCsv(
      'Concurrency,Inferences/Second,Response Throughput,Client Send,Client Recv,p50 latency,p90 latency,p95 latency,p99 latency\n1,10,250.5,0,0,1,2,3,4\n',
      'b.csv',
    );
    expect(decoupled.rows[0]!.responseThroughput).toBe(250.5);
    const rate = parsePerfCsv(
      'Request Rate,Inferences/Second,Client Send,Client Recv,p50 latency,p90 latency,p95 latency,p99 latency\n100.5,99,1,1,1,2,3,4\n',
      'c.csv',
    );
    expect(rate).toMatchObject({ load: 'request rate', rows: [{ load: 100.5 }] });
    const verbose = parsePerfCsv(
      'Concurrency,Inferences/Second,Client Send,Client Recv,p50 latency,p90 latency,p95 latency,p99 latency,Avg latency,request/response,response wait,\n1,5,1,1,1,2,3,4,2,3,4,\n',
      'd.csv',
    );
    expect(verbose.latencies).toEqual(['p50', 'p90', 'p95', 'p99', 'avg']);
  });

  it('a malformed file names the file, the line and the column', () => {
    expect(() => parsePerfCsv('Model,Batch\n', 'x.csv')).toThrow(/^x\.csv:1:1: not a perf_analyzer CSV: the first column is "Model"/);
    expect(() => parsePerfCsv(DOCUMENTED.replace('84.2,279', 'fast,279'), 'perf.csv')).toThrow(/^perf\.csv:4:3: "Inferences\/Second" is "fast", not a number/);
    expect(() => parsePerfCsv(DOCUMENTED.replace('2,87.2,235,1973,9151,190,11346,17,0,21874,28557,29768,34766', '2,87.2,235'), 'perf.csv')).toThrow(
      /^perf\.csv:5:\d+: the row has 3 cells and the header 13 columns/,
    );
    expect(() => parsePerfCsv(DOCUMENTED.replace(',21018\n', ',\n'), 'perf.csv')).toThrow(/^perf\.csv:2:\d+: no value for "p99 latency"/);
    expect(() => parsePerfCsv(`${DOCUMENTED}5,1,2,3,4,5,6,7,8,9,10,11,12,13\n`, 'perf.csv')).toThrow(
      /^perf\.csv:6:\d+: the row has 14 cells and the header 13 columns/,
    );
    expect(() => parsePerfCsv('', 'e.csv')).toThrow(/e\.csv:1:1: the file is empty/);
  });
});

describe('parseModelAnalyzerCsv', () => {
  it("groups the golden file's rows by variant, latency from milliseconds, quoted cells and the trailing blank line", () => {
    const golden =
      'Model,Batch,Concurrency,Model Config Path,Instance Group,Max Batch Size,Satisfies Constraints,Throughput (infer/sec),p99 Latency (ms)\nadd_sub,2,2,add_sub_config_default,1:GPU,8,Yes,13205.0,0.5\nadd_sub,1,2,add_sub_config_default,1:GPU,8,Yes,6176.0,0.6\nadd_sub,1,1,add_sub_config_1,2:GPU,8,Yes,"4000.0, [2000.0,2000.0]",0.4\n\n';
    const t = parseModelAnalyzerCsv(golden, 'metrics-model-inference.csv');
    expect([...t.keys()]).toEqual(['add_sub_config_default', 'add_sub_config_1']);
    expect(t.get('add_sub_config_1')!.rows[0]).toMatchObject({ load: 1, throughput: 4000, latencyUs: { p99: 400 } });
  });
  it('says which columns are missing', () => {
    expect(() => parseModelAnalyzerCsv('Model,Batch\nx,1\n', 'm.csv')).toThrow(/m\.csv:1:1: not a Model Analyzer metrics-model-inference\.csv/);
  });
});
