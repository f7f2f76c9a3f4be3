// tune and perf_analyzer --shared-memory against the Triton the user runs: from 26.04 on tritonserver
// refuses client shared memory unless started with --allow-client-shm=true (server
// src/command_line_parser.cc @ r26.04; src/common.h kClientShmDisabledErrorStr), so perf_analyzer
// --shared-memory fails there. tune says so before anything is written or run, and starts its own
// server allowing it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serverArgsFor, sharedMemoryRefusal } from '../../src/tune/client-shm.js';
import { levelArgs } from '../../src/tune/perf-analyzer.js';
import { parseTarget } from '../../src/triton/releases/target.js';
import { cli } from '../support/cli.js';
import { CLASSIFIER, writeRepo } from '../lint/harness.js';

const CONFIG = `name: "classifier"
backend: "onnxruntime"
max_batch_size: 8
input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
output [ { name: "output" data_type: TYPE_FP32 dims: [ 1000 ] } ]
dynamic_batching { }
`;

async function plan(...flags: string[]) {
  const repo = await writeRepo({ 'classifier/config.pbtxt': CONFIG, 'classifier/1/model.onnx': CLASSIFIER });
  const out = join(repo, 'plan');
  const r = await cli(['tune', 'plan', join(repo, 'classifier'), '--out', out, '--delays', '0', '--instances', '1', '--preferred', 'keep', ...flags], {
    cwd: repo,
  });
  return { out, r };
}

describe('tune --shared-memory and --allow-client-shm', () => {
  it('26.03: no opt-in needed; 26.04: refused unless the server allows it', () => {
    expect(sharedMemoryRefusal(parseTarget('26.03'), 'system', false)).toBeUndefined();
    expect(sharedMemoryRefusal(parseTarget('26.04'), 'system', false)).toContain(
      "Client shared memory is disabled. Start the server with '--allow-client-shm=true' to enable.",
    );
    expect(sharedMemoryRefusal(parseTarget('26.04'), 'system', true)).toBeUndefined();
    expect(sharedMemoryRefusal(parseTarget('26.08'), 'none', false)).toBeUndefined();
    expect(serverArgsFor(parseTarget('26.03'), 'cuda')).toEqual([]);
    expect(serverArgsFor(parseTarget('26.04'), 'cuda')).toEqual(['--allow-client-shm=true']);
    expect(serverArgsFor(parseTarget('26.04'), 'none')).toEqual([]);
  });

  it('perf_analyzer is given --shared-memory for a level', () => {
    const args = levelArgs({
      model: 'm',
      url: 'localhost:8000',
      concurrency: 2,
      measurementIntervalMs: 1000,
      percentile: 99,
      sharedMemory: 'system',
      csvFile: '/x.csv',
    });
    expect(args).toContain('--shared-memory=system');
    expect(
      levelArgs({ model: 'm', url: 'localhost:8000', concurrency: 2, measurementIntervalMs: 1000, percentile: 99, csvFile: '/x.csv' }).join(' '),
    ).not.toContain('shared-memory');
  });

  it('tune plan --shared-memory system for 26.03: written, the command carries it', async () => {
    const { out, r } = await plan('--shared-memory', 'system', '--triton-version', '26.03');
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(out, 'classifier_d0_i1', 'perf_analyzer.sh'), 'utf8')).toContain('--shared-memory=system');
    expect(r.stdout).toContain('--model-control-mode explicit\n');
  });

  it('tune plan --shared-memory system for 26.04: refused, nothing written; with --allow-client-shm: written, the server line says how to start it', async () => {
    const refused = await plan('--shared-memory', 'system', '--triton-version', '26.04');
    expect(refused.r.code).toBe(2);
    expect(refused.r.stderr).toContain(
      'Triton 26.04 (from 26.04 on) refuses client shared memory unless tritonserver was started with --allow-client-shm=true',
    );
    expect(existsSync(refused.out)).toBe(false);
    const allowed = await plan('--shared-memory', 'cuda', '--triton-version', '26.05', '--allow-client-shm');
    expect(allowed.r.code, allowed.r.stderr).toBe(0);
    expect(allowed.r.stdout).toContain('--model-control-mode explicit --allow-client-shm=true');
  });

  it('tune run on a running 26.05 server with --shared-memory: refused before anything runs', async () => {
    const repo = await writeRepo({ 'classifier/config.pbtxt': CONFIG, 'classifier/1/model.onnx': CLASSIFIER });
    const r = await cli(
      [
        'tune',
        'run',
        join(repo, 'classifier'),
        '--runtime',
        'server',
        '--server',
        'http://127.0.0.1:9',
        '--shared-memory',
        'system',
        '--triton-version',
        '26.05',
        '--latency-budget',
        '20ms',
      ],
      { cwd: repo },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--shared-memory system: Triton 26.05 (from 26.04 on) refuses client shared memory');
  });

  it('tune plan lints the model against --triton-version: an ONNX model for the trtllm image, which has no ONNX Runtime, is refused', async () => {
    const { out, r } = await plan('--triton-version', 'nvcr.io/nvidia/tritonserver:26.03-trtllm-python-py3');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('the nvcr.io/nvidia/tritonserver:26.03-trtllm-python-py3 image has no backend "onnxruntime"');
    expect(r.stderr).toContain('Nothing written');
    expect(existsSync(out)).toBe(false);
  });
});
