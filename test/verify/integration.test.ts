// verify against a real Triton. Runs only where one is available, and says why it is skipped otherwise:
//  - TRITONC_TRITON_URL=http://host:8000: a running Triton whose repository holds model_repository/classifier
//    (start it as docs/verify.md shows, with --model-control-mode=explicit for the candidate-config test);
//  - or a Docker daemon, an NVIDIA GPU (nvidia-smi) and the Triton image already pulled (or
//    TRITONC_VERIFY_PULL=1 to let the test pull it; it is several GB). TRITONC_TRITON_IMAGE picks the image.
// See docs/verify.md ("Running the integration test on a GPU machine").
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TRITON_IMAGE } from '../../src/verify/docker-args.js';
import { verifyModel } from '../../src/verify/verify.js';
import { tempDir } from '../support/cli.js';

const ROOT = join(import.meta.dirname, '..', '..');
const URL_ENV = process.env.TRITONC_TRITON_URL;
const IMAGE = process.env.TRITONC_TRITON_IMAGE ?? DEFAULT_TRITON_IMAGE;
const LOAD_TIMEOUT_MS = 15 * 60_000;

const ok = (cmd: string, args: string[]): boolean => {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 30_000 });
  return r.status === 0;
};

/** Why the docker integration test cannot run here, or undefined when it can. */
function dockerSkipReason(): string | undefined {
  if (!ok('docker', ['version', '--format', '{{.Server.Version}}'])) return 'no Docker daemon answers here';
  if (!ok('nvidia-smi', ['-L'])) return 'no NVIDIA GPU here (nvidia-smi -L fails)';
  if (!process.env.TRITONC_VERIFY_PULL && !ok('docker', ['image', 'inspect', IMAGE])) return `${IMAGE} is not pulled (docker pull ${IMAGE}, or set TRITONC_VERIFY_PULL=1)`;
  return undefined;
}

const serverReason = URL_ENV ? undefined : 'TRITONC_TRITON_URL is not set';
const dockerReason = dockerSkipReason();

/** A copy of the example classifier with the batch dim written into dims (Triton refuses it). */
function brokenClassifier(): string {
  const repo = tempDir('tritonc-verify-it-');
  cpSync(join(ROOT, 'model_repository', 'classifier'), join(repo, 'classifier'), { recursive: true });
  const file = join(repo, 'classifier', 'config.pbtxt');
  writeFileSync(file, readFileSync(file, 'utf8').replace('dims: [ 3, 224, 224 ]', 'dims: [ 1, 3, 224, 224 ]'));
  return join(repo, 'classifier');
}

describe(`verify against a running Triton${serverReason ? ` (skipped: ${serverReason})` : ''}`, () => {
  it.skipIf(serverReason !== undefined)('loads the example classifier and answers at batch 1 and 32', { timeout: LOAD_TIMEOUT_MS + 60_000 }, async () => {
    const r = await verifyModel({ modelDir: join(ROOT, 'model_repository', 'classifier'), runtime: 'server', server: URL_ENV!, timeoutMs: LOAD_TIMEOUT_MS });
    expect(r.error).toBeUndefined();
    expect(r.problems).toEqual([]);
    expect(r.runs.map((x) => [x.batchSize, x.ok])).toEqual([[1, true], [32, true]]);
    expect(r.configDiff?.length).toBeGreaterThan(0);
  });

  it.skipIf(serverReason !== undefined)('is refused a config with the batch dim in dims (explicit model control), mapped to the rule', { timeout: LOAD_TIMEOUT_MS + 60_000 }, async () => {
    const r = await verifyModel({ modelDir: brokenClassifier(), runtime: 'server', server: URL_ENV!, timeoutMs: LOAD_TIMEOUT_MS });
    if (r.notes.some((n) => n.includes('refuses explicit model loads'))) return; // a server without explicit control tests only the first case
    expect(r.exitCode).toBe(1);
    expect(r.problems[0]).toMatchObject({ kind: 'load', ruleId: 'batch-dim-in-dims' });
  });

  // The points of the protocol fixture (fixtures/verify/protocol-fixture.ts), against Triton itself.
  const served = async (): Promise<unknown> => {
    const { KServeClient } = await import('../../src/verify/kserve-client.js');
    return (await new KServeClient(URL_ENV!).modelConfig('classifier').catch(() => ({ raw: undefined }))).raw;
  };

  it.skipIf(serverReason !== undefined)('puts the model back: the config read back after verify is the one served before', { timeout: LOAD_TIMEOUT_MS + 60_000 }, async () => {
    const before = await served();
    const candidate = brokenClassifier();
    writeFileSync(join(candidate, 'config.pbtxt'), readFileSync(join(ROOT, 'model_repository', 'classifier', 'config.pbtxt'), 'utf8').replace(/max_batch_size: \d+/, 'max_batch_size: 2'));
    const r = await verifyModel({ modelDir: candidate, runtime: 'server', server: URL_ENV!, timeoutMs: LOAD_TIMEOUT_MS });
    if (r.notes.some((n) => n.includes('refuses explicit model loads'))) return;
    expect(r.problems).toEqual([]);
    expect(await served()).toEqual(before);
  });

  it.skipIf(serverReason !== undefined)('a refusal Triton does not explain ("failed to poll") gets the lint finding as the likely reason', { timeout: LOAD_TIMEOUT_MS + 60_000 }, async () => {
    const before = await served();
    const candidate = brokenClassifier();
    writeFileSync(join(candidate, 'config.pbtxt'), readFileSync(join(ROOT, 'model_repository', 'classifier', 'config.pbtxt'), 'utf8').replace(/max_batch_size: \d+/, 'max_batch_size: -2'));
    const r = await verifyModel({ modelDir: candidate, runtime: 'server', server: URL_ENV!, timeoutMs: LOAD_TIMEOUT_MS });
    if (r.notes.some((n) => n.includes('refuses explicit model loads'))) return;
    expect(r.exitCode).toBe(1);
    expect(r.problems[0]).toMatchObject({ kind: 'load', ruleId: 'max-batch-size' });
    expect(await served()).toEqual(before);
  });
});

describe(`verify in a Triton container${dockerReason ? ` (skipped: ${dockerReason})` : ''}`, () => {
  it.skipIf(dockerReason !== undefined)('loads the example classifier on the GPU and answers at batch 1 and 32', { timeout: LOAD_TIMEOUT_MS + 120_000 }, async () => {
    const r = await verifyModel({ modelDir: join(ROOT, 'model_repository', 'classifier'), runtime: 'docker', image: IMAGE, timeoutMs: LOAD_TIMEOUT_MS });
    expect(r.error).toBeUndefined();
    expect(r.problems).toEqual([]);
    expect(r.runs.map((x) => [x.batchSize, x.ok])).toEqual([[1, true], [32, true]]);
  });

  it.skipIf(dockerReason !== undefined)('shows Triton\'s refusal of the batch dim in dims, mapped to the rule', { timeout: LOAD_TIMEOUT_MS + 120_000 }, async () => {
    const r = await verifyModel({ modelDir: brokenClassifier(), runtime: 'docker', image: IMAGE, timeoutMs: LOAD_TIMEOUT_MS });
    expect(r.exitCode).toBe(1);
    expect(r.tritonMessages?.some((m) => m.ruleId === 'batch-dim-in-dims')).toBe(true);
  });
});
