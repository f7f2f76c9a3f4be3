// verify --runtime server against the real tritonserver 2.51 (release 24.10): GET /v2 answers its
// version, and a target of another release is said plainly as a warning; told 24.10, nothing is said.
// Without the venv (a fresh clone) the suite is skipped with one line; with CI=true it must run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverVersionWarning } from '../../src/verify/server-version.js';
import { parseTarget } from '../../src/triton/releases/target.js';
import { cli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';
import { PYTHON_CONFIG, realTritonRuns, startRealTriton, type RealTriton } from '../support/real-triton.js';

const runs = realTritonRuns('verify --runtime server version tests');

const MODEL_PY = `import triton_python_backend_utils as pb_utils


class TritonPythonModel:
    def execute(self, requests):
        return [
            pb_utils.InferenceResponse([pb_utils.Tensor("OUTPUT0", pb_utils.get_input_tensor_by_name(r, "INPUT0").as_numpy() + 1)])
            for r in requests
        ]
`;

let server: RealTriton | undefined;
let repo = '';

beforeAll(async () => {
  if (!runs) return;
  repo = join(tempDir('tritonc-version-real-'), 'models');
  mkdirSync(join(repo, 'add_one', '1'), { recursive: true });
  writeFileSync(join(repo, 'add_one', 'config.pbtxt'), PYTHON_CONFIG('add_one'));
  writeFileSync(join(repo, 'add_one', '1', 'model.py'), MODEL_PY);
  server = await startRealTriton(repo, ['--load-model=add_one']);
}, 90_000);

afterAll(async () => {
  await server?.stop();
});

describe('serverVersionWarning', () => {
  it('names the server version, its release and the target; nothing when they agree', () => {
    expect(serverVersionWarning('2.51.0', parseTarget('26.06'))).toBe(
      'the server is tritonserver 2.51.0 (24.10), tritonc was told 26.06: verdicts are for 26.06',
    );
    expect(serverVersionWarning('2.51.0', parseTarget('24.10'))).toBeUndefined();
    expect(serverVersionWarning('2.51.0', parseTarget('nvcr.io/nvidia/tritonserver:24.10-py3'))).toBeUndefined();
    expect(serverVersionWarning('2.73.0dev', parseTarget('26.08'))).toBe(
      'the server is tritonserver 2.73.0dev (a release tritonc does not know), tritonc was told 26.08: verdicts are for 26.08',
    );
    expect(serverVersionWarning('2.51.0', undefined)).toContain('give --triton-version 24.10 to judge for this server');
  });
});

describe.runIf(runs)('verify --runtime server on the real 2.51', () => {
  it('told 26.06: the JSON report and the text carry the warning; told 24.10: none', { timeout: 120_000 }, async () => {
    const model = join(repo, 'add_one');
    const other = await cli(['verify', model, '--runtime', 'server', '--server', server!.url, '--triton-version', '26.06', '--format', 'json'], { cwd: repo });
    const report = JSON.parse(other.stdout) as { outcome: string; serverVersion: string; warnings?: string[] };
    expect(report.outcome, other.stderr).toBe('ok');
    expect(report.serverVersion).toBe('2.51.0');
    expect(report.warnings).toEqual(['the server is tritonserver 2.51.0 (24.10), tritonc was told 26.06: verdicts are for 26.06']);
    const text = await cli(['verify', model, '--runtime', 'server', '--server', server!.url, '--triton-version', '26.06'], { cwd: repo });
    expect(text.stdout).toContain('warning: the server is tritonserver 2.51.0 (24.10), tritonc was told 26.06: verdicts are for 26.06');
    const same = await cli(['verify', model, '--runtime', 'server', '--server', server!.url, '--triton-version', '24.10', '--format', 'json'], { cwd: repo });
    const agreed = JSON.parse(same.stdout) as { outcome: string; warnings?: string[] };
    expect(agreed.outcome, same.stderr).toBe('ok');
    expect(agreed.warnings).toBeUndefined();
  });
});
