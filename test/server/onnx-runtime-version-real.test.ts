// ONNX models too new for the release's ONNX Runtime, against the real thing:
// - ONNX Runtime 1.19.2 itself (what Triton 24.10 bundles; scripts/model-exports/onnxruntime) loads
//   models one IR version or opset either side of its limits: it refuses exactly those tritonc's
//   onnx-runtime-version refuses for --triton-version 24.10, in the words tritonc quotes;
// - the real tritonserver 2.51 (r24.10's ONNX Runtime backend, over the ONNX Runtime library setup.sh
//   gives it, 1.30) shows how Triton surfaces ONNX Runtime's refusal, and refuses BF16 I/O as
//   io-datatype says for 24.10.
// Each part skips with one line where its runtime is missing; under CI=true both run.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeModel, model, node, T, tensorInfo } from '../../fixtures/onnx/model-builder.js';
import { cli } from '../support/cli.js';
import { EXPORTS_PYTHON, exportersRun } from '../support/model-exports.js';
import { realBackendsRun, startRealTriton, type RealTriton } from '../support/real-triton.js';
import { tempDir } from '../support/temp.js';

/** The ONNX Runtime in the exporters' venv, or why there is none of 24.10's. */
function ortVersion(): string {
  try {
    return execFileSync(EXPORTS_PYTHON, ['-c', 'import onnxruntime; print(onnxruntime.__version__)'], {
      encoding: 'utf8',
      stdio: 'pipe',
      timeout: 60_000,
    }).trim();
  } catch {
    return 'none';
  }
}
const ortRuns = (() => {
  if (!exportersRun("ONNX Runtime 1.19.2's limits")) return false;
  const v = ortVersion();
  if (v === '1.19.2' || process.env.CI === 'true') return true;
  console.log(`tritonc: ONNX Runtime 1.19.2's limits skipped: the exporters' venv has onnxruntime ${v} (bash scripts/model-exports/setup.sh installs 1.19.2)`);
  return false;
})();

type Stamp = { irVersion?: number; opset?: number; extraOpsets?: { domain: string; version: number }[]; noOpset?: true; bf16?: true };
const onnx = (o: Stamp): Uint8Array => {
  // TensorProto.BFLOAT16 is 16 (onnx/onnx.proto DataType).
  const type = o.bf16 ? 16 : T.FLOAT;
  return encodeModel(
    model({ name: 'g', node: [node('Identity', ['x'], ['y'])], input: [tensorInfo('x', type, [-1, 4])], output: [tensorInfo('y', type, [-1, 4])] }, o),
  );
};
const config = (type = 'TYPE_FP32', out = type): string =>
  `backend: "onnxruntime"\nmax_batch_size: 8\ninput [ { name: "x" data_type: ${type} dims: [ 4 ] } ]\noutput [ { name: "y" data_type: ${out} dims: [ 4 ] } ]\ninstance_group [ { count: 1 kind: KIND_CPU } ]\n`;

function writeRepo(dir: string, models: Record<string, { stamp: Stamp; config: string }>): string {
  const repo = join(dir, 'repo');
  for (const [name, m] of Object.entries(models)) {
    mkdirSync(join(repo, name, '1'), { recursive: true });
    writeFileSync(join(repo, name, '1', 'model.onnx'), onnx(m.stamp));
    writeFileSync(join(repo, name, 'config.pbtxt'), m.config);
  }
  return repo;
}

/** lint's findings per model directory, as "<rule>/<messageId>" and each message. */
async function lint(repo: string, release: string): Promise<Map<string, { id: string; message: string }[]>> {
  const r = await cli(['lint', repo, '--triton-version', release, '--format', 'json']);
  const out = new Map<string, { id: string; message: string }[]>();
  for (const f of JSON.parse(r.stdout) as { filePath: string; messages: { ruleId: string; messageId: string; message: string }[] }[]) {
    const name = f.filePath.slice(repo.length + 1).split('/')[0]!;
    for (const m of f.messages) out.set(name, [...(out.get(name) ?? []), { id: `${m.ruleId}/${m.messageId}`, message: m.message }]);
  }
  return out;
}

/** The Triton or ONNX Runtime text a finding quotes ("..." inside it standing for any text), as a pattern. */
function quoted(message: string): RegExp {
  const q = /\("(.+?)"\)/.exec(message)?.[1];
  if (!q) throw new Error(`no quote in ${message}`);
  return new RegExp(
    q
      .split('...')
      .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*?'),
  );
}

describe.skipIf(!ortRuns)("ONNX Runtime 1.19.2 (Triton 24.10's) refuses what onnx-runtime-version refuses for 24.10, in its words", () => {
  const MODELS: Record<string, Stamp> = {
    ir10: { irVersion: 10, opset: 21 },
    ir11: { irVersion: 11, opset: 13 },
    opset22: { irVersion: 8, opset: 22 },
    ml5: { extraOpsets: [{ domain: 'ai.onnx.ml', version: 5 }] },
    ml6: { extraOpsets: [{ domain: 'ai.onnx.ml', version: 6 }] },
    noopset: { noOpset: true },
  };
  let repo = '';
  let said: Record<string, string | null> = {};
  let found = new Map<string, { id: string; message: string }[]>();
  beforeAll(async () => {
    repo = writeRepo(tempDir('tritonc-ort-limits-'), Object.fromEntries(Object.entries(MODELS).map(([n, stamp]) => [n, { stamp, config: config() }])));
    const script = `import json, sys, onnxruntime as ort
out = {}
for name in sys.argv[2:]:
    try:
        ort.InferenceSession(f"{sys.argv[1]}/{name}/1/model.onnx", providers=["CPUExecutionProvider"]); out[name] = None
    except Exception as e:
        out[name] = str(e)
print(json.dumps({"version": ort.__version__, "said": out}))
`;
    const r = JSON.parse(execFileSync(EXPORTS_PYTHON, ['-c', script, repo, ...Object.keys(MODELS)], { encoding: 'utf8', timeout: 120_000 })) as {
      version: string;
      said: Record<string, string | null>;
    };
    expect(r.version).toBe('1.19.2');
    said = r.said;
    found = await lint(repo, '24.10');
  }, 180_000);

  for (const name of ['ir10', 'ir11', 'opset22', 'ml5', 'ml6', 'noopset']) {
    it(`${name}: the same verdict, and the finding quotes ONNX Runtime's words`, () => {
      const ours = (found.get(name) ?? []).filter((f) => f.id.startsWith('onnx-runtime-version/'));
      if (said[name] === null) {
        expect(ours).toEqual([]);
        return;
      }
      expect(ours).toHaveLength(1);
      expect(said[name]).toMatch(quoted(ours[0]!.message));
    });
  }
});

const realRuns = realBackendsRun('ONNX model IR versions, opsets and BF16 against the real tritonserver 2.51', ['onnxruntime']);

describe.skipIf(!realRuns)('the real tritonserver 2.51: how Triton surfaces ONNX Runtime refusing a model, and BF16 I/O before 26.03', () => {
  let dir = '';
  let server: RealTriton;
  let found = new Map<string, { id: string; message: string }[]>();
  beforeAll(async () => {
    dir = tempDir('tritonc-ort-version-real-');
    // IR 14 and opset 27: refused by every ONNX Runtime tritonc knows, and by 2.51's (1.30) too.
    const repo = writeRepo(dir, {
      ir14: { stamp: { irVersion: 14, opset: 13 }, config: config() },
      opset27: { stamp: { opset: 27 }, config: config() },
      noopset: { stamp: { noOpset: true }, config: config() },
      bf16: { stamp: { bf16: true }, config: config('TYPE_BF16') },
      bf16_as_fp32: { stamp: { bf16: true }, config: config('TYPE_FP32') },
      bf16_auto: { stamp: { bf16: true }, config: 'backend: "onnxruntime"\nmax_batch_size: 8\ninstance_group [ { count: 1 kind: KIND_CPU } ]\n' },
    });
    const tmp = process.env.TMPDIR;
    process.env.TMPDIR = join(dir, 'server-tmp');
    mkdirSync(process.env.TMPDIR);
    try {
      server = await startRealTriton(repo, [], '/v2/health/live');
    } finally {
      if (tmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = tmp;
    }
    found = await lint(repo, '24.10');
  }, 180_000);
  afterAll(async () => server?.stop());

  const load = async (m: string): Promise<string> => {
    const r = await fetch(`${server.url}/v2/repository/models/${m}/load`, { method: 'POST', body: '{}', signal: AbortSignal.timeout(60_000) });
    expect(r.status).toBe(400);
    return ((await r.json()) as { error: string }).error + server.log();
  };
  const ids = (m: string) => (found.get(m) ?? []).map((f) => f.id);

  it('IR 14: "onnx runtime error 1: Load model from <path> failed:" then ONNX Runtime\'s words; lint refuses it for 24.10', async () => {
    expect(await load('ir14')).toMatch(
      /onnx runtime error 1: Load model from \S+\/ir14\/1\/model\.onnx failed:\S+ .*Unsupported model IR version: 14, max supported IR version: \d+/,
    );
    expect(ids('ir14')).toEqual(['onnx-runtime-version/irVersionTooNewEverywhere']);
  }, 90_000);

  it('opset 27: ValidateOpsetForDomain refuses it; lint too', async () => {
    expect(await load('opset27')).toMatch(
      /Opset 27 is under development and support for this is limited\..*Current official support for domain ai\.onnx is till opset \d+\./,
    );
    expect(ids('opset27')).toEqual(['onnx-runtime-version/opsetTooNewEverywhere']);
  }, 90_000);

  it('no opset_import: ONNX Runtime refuses it through the server in the words lint quotes', async () => {
    const said = await load('noopset');
    const ours = (found.get('noopset') ?? []).filter((f) => f.id === 'onnx-runtime-version/noOpset');
    expect(ours).toHaveLength(1);
    expect(said).toMatch(/onnx runtime error 1: Load model from \S+\/noopset\/1\/model\.onnx failed:/);
    expect(said).toMatch(quoted(ours[0]!.message));
  }, 90_000);

  it('bf16_auto: auto-complete writes TYPE_INVALID and core refuses it, in the words lint quotes for 24.10', async () => {
    const said = await load('bf16_auto');
    const ours = (found.get('bf16_auto') ?? []).filter((f) => f.id === 'io-datatype/bf16BeforeReleaseAutoComplete');
    expect(ours).toHaveLength(1);
    expect(said).toMatch(quoted(ours[0]!.message));
  }, 90_000);

  for (const [m, id] of [
    ['bf16', 'io-datatype/bf16BeforeRelease'],
    ['bf16_as_fp32', 'io-datatype/bf16BeforeReleaseMismatch'],
  ] as const) {
    it(`${m}: r24.10's backend refuses BF16 I/O in the words lint quotes for 24.10`, async () => {
      const said = await load(m);
      const ours = (found.get(m) ?? []).filter((f) => f.id === id);
      // Triton stops at the input (ValidateInputs runs before ValidateOutputs); lint names the output too.
      expect(ours.map((f) => f.message.split("'")[1])).toEqual(['x', 'y']);
      expect(said).toMatch(quoted(ours[0]!.message));
    }, 90_000);
  }
});
