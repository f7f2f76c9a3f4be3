// Core's facts by release (src/triton/core-releases.ts), judged by Triton's own core of each side of the
// change: the r24.10 core (2.51.0, what the live suites' tritonserver runs), the r26.06 core (2.70.0) and
// core main at 73aad7c (2.71.0dev, told 26.07), all loading the same repository in-process (test/support/triton-core.ts). For each case the core's
// verdict is the expected one, and tritonc, told the same release (--triton-version 24.10 / 26.06),
// agrees: it refuses what the core refuses (for the same reason) and accepts what it loads, and its
// auto-fill writes the fields the core's effective config holds.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { lintSync } from '../../src/lint/engine.js';
import { CORE_RULES } from '../../src/lint/rules/index.js';
import { DEFAULT_SETTINGS } from '../../src/lint/settings.js';
import { MODEL_NAME_REFUSALS } from '../../src/triton/core-releases.js';
import { parseTarget } from '../../src/triton/releases/target.js';
import { resolveModelDir } from '../../src/workspace/index.js';
import { coreBackendDirectory, coresRun, coreVerdicts, reason, type CoreName, type CoreVerdict } from '../support/triton-core.js';
import { tempDir } from '../support/temp.js';

/** Each core, the release tritonc is told, and the column of CASES it must give (core main at 73aad7c is r26.06 and one commit, an early 2.71: 26.07). */
const CORES = [
  { core: 'r24.10', release: '24.10', as: '24.10' },
  { core: 'r26.06', release: '26.06', as: '26.06' },
  { core: 'main-73aad7c', release: '26.07', as: '26.06' },
] as const satisfies readonly { core: CoreName; release: string; as: '24.10' | '26.06' }[];
const runs = coresRun(
  "core's facts by release against the r24.10 and r26.06 cores",
  CORES.map((c) => c.core),
);

const IO = 'max_batch_size: 0\ninput [ { name: "x" data_type: TYPE_FP32 dims: [ 4 ] } ]\noutput [ { name: "y" data_type: TYPE_FP32 dims: [ 4 ] } ]\n';
const BIG = '[ 4294967296, 4294967296 ]';

/**
 * Each case: its model directory (config and files), and per release the core's verdict (a pattern of
 * its refusal, or 'loads') and, for a model that loads, the backend fields its effective config holds.
 */
interface Case {
  files: Record<string, string>;
  expect: Record<'24.10' | '26.06', { refuses: RegExp; rule: string } | { loads: Record<string, string | undefined> }>;
}

const CASES: Record<string, Case> = {
  label_outside: {
    files: {
      'config.pbtxt': `backend: "stub"\nmax_batch_size: 0\ninput [ { name: "x" data_type: TYPE_FP32 dims: [ 4 ] } ]\noutput [ { name: "y" data_type: TYPE_FP32 dims: [ 4 ] label_filename: "../labels.txt" } ]\n`,
      '1/.keep': '',
    },
    expect: {
      '24.10': { loads: { backend: 'stub' } },
      '26.06': {
        refuses: /^label file path '.*\/label_outside\/\.\.\/labels\.txt' for output 'y' in model 'label_outside' is outside model directory/,
        rule: 'label-file',
      },
    },
  },
  overflow_reshape: {
    files: {
      'config.pbtxt': `backend: "stub"\nmax_batch_size: 0\ninput [ { name: "x" data_type: TYPE_FP32 dims: ${BIG} reshape { shape: ${BIG} } } ]\noutput [ { name: "y" data_type: TYPE_FP32 dims: [ 4 ] } ]\n`,
      '1/.keep': '',
    },
    expect: {
      '24.10': { loads: { backend: 'stub' } },
      '26.06': { refuses: /element count for tensor 'x dims' exceeds maximum size of 9223372036854775807 for overflow_reshape/, rule: 'io-dims' },
    },
  },
  overflow_input: {
    files: {
      'config.pbtxt': `backend: "stub"\nmax_batch_size: 0\ninput [ { name: "x" data_type: TYPE_FP32 dims: ${BIG} } ]\noutput [ { name: "y" data_type: TYPE_FP32 dims: [ 4 ] } ]\n`,
      '1/.keep': '',
    },
    expect: {
      '24.10': { loads: { backend: 'stub' } },
      '26.06': { refuses: /element count for tensor 'x' exceeds maximum size of 9223372036854775807/, rule: 'io-dims' },
    },
  },
  aoti_platform: {
    files: { 'config.pbtxt': `platform: "torch_aoti"\n${IO}`, '1/model.pt2': '' },
    expect: {
      '24.10': { refuses: /^unexpected platform type 'torch_aoti' for aoti_platform$/, rule: 'platform-backend' },
      '26.06': { loads: { platform: 'torch_aoti', backend: 'pytorch', default_model_filename: 'model.pt2' } },
    },
  },
  aoti_file: {
    files: { 'config.pbtxt': IO, '1/model.pt2': '' },
    expect: {
      '24.10': { refuses: /Could not determine backend for model 'aoti_file'/, rule: 'platform-backend' },
      '26.06': { loads: { platform: 'torch_aoti', backend: 'pytorch', default_model_filename: 'model.pt2' } },
    },
  },
  libtorch_file: {
    files: { 'config.pbtxt': IO, '1/model.pt': '' },
    expect: {
      '24.10': { loads: { platform: 'pytorch_libtorch', backend: 'pytorch', default_model_filename: 'model.pt' } },
      '26.06': { loads: { platform: 'pytorch_libtorch', backend: 'pytorch', default_model_filename: undefined } },
    },
  },
  libtorch_platform: {
    files: { 'config.pbtxt': `platform: "pytorch_libtorch"\n${IO}`, '1/model.pt': '' },
    expect: {
      '24.10': { loads: { platform: 'pytorch_libtorch', backend: 'pytorch', default_model_filename: 'model.pt' } },
      '26.06': { loads: { platform: 'pytorch_libtorch', backend: 'pytorch', default_model_filename: undefined } },
    },
  },
  aoti_with_backend: {
    files: { 'config.pbtxt': `platform: "torch_aoti"\nbackend: "pytorch"\n${IO}`, '1/model.pt2': '' },
    expect: {
      '24.10': { refuses: /^unexpected 'platform' and 'backend' pair, got:torch_aoti, pytorch$/, rule: 'platform-backend' },
      '26.06': { loads: { platform: 'torch_aoti', backend: 'pytorch', default_model_filename: 'model.pt2' } },
    },
  },
  libtorch_alias: {
    files: { 'config.pbtxt': `platform: "libtorch"\n${IO}`, '1/model.pt': '' },
    expect: {
      '24.10': { refuses: /^unexpected platform type 'libtorch' for libtorch_alias$/, rule: 'platform-backend' },
      // From 26.04 auto-fill reads the alias, and the pair check then refuses it (platform-backend's platformAliasBackendMismatchFilled).
      '26.06': { refuses: /^unexpected 'platform' and 'backend' pair, got:libtorch, pytorch$/, rule: 'platform-backend' },
    },
  },
  // TRITON_BATCH_STRATEGY_PATH (backend_model.cc TritonModel::Create): a relative path is the server's
  // working directory's; from 26.06 one outside the model directory is refused before the look.
  batch_relative: {
    files: {
      'config.pbtxt': `backend: "stub"\n${IO}parameters { key: "TRITON_BATCH_STRATEGY_PATH" value { string_value: "libbatch.so" } }\n`,
      'libbatch.so': 'x',
      '1/.keep': '',
    },
    expect: {
      '24.10': { refuses: /^Batching library path not found: libbatch\.so$/, rule: 'batch-strategy-path' },
      '26.06': { refuses: /^Batching library path escapes model repository\.$/, rule: 'batch-strategy-path' },
    },
  },
  // {{dir}}: the model directory's absolute path.
  batch_inside_missing: {
    files: {
      'config.pbtxt': `backend: "stub"\n${IO}parameters { key: "TRITON_BATCH_STRATEGY_PATH" value { string_value: "{{dir}}/lib/libbatch.so" } }\n`,
      '1/.keep': '',
    },
    expect: {
      '24.10': { refuses: /^Batching library path not found: \/.*\/batch_inside_missing\/lib\/libbatch\.so$/, rule: 'batch-strategy-path' },
      '26.06': { refuses: /^Batching library path not found: \/.*\/batch_inside_missing\/lib\/libbatch\.so$/, rule: 'batch-strategy-path' },
    },
  },
  'a..b': {
    files: { 'config.pbtxt': `backend: "stub"\n${IO}`, '1/.keep': '' },
    expect: { '24.10': { loads: { backend: 'stub' } }, '26.06': { loads: { backend: 'stub' } } },
  },
};

const verdicts = new Map<string, Map<string, CoreVerdict>>();
let repo = '';

describe.runIf(runs)("core's facts by release, judged by the r24.10, r26.06 and main cores and by tritonc told the same release", () => {
  beforeAll(async () => {
    const root = tempDir('tritonc-core-releases-');
    repo = join(root, 'repo');
    for (const [model, c] of Object.entries(CASES))
      for (const [file, text] of Object.entries(c.files)) {
        mkdirSync(join(repo, model, file, '..'), { recursive: true });
        writeFileSync(join(repo, model, file), text.replaceAll('{{dir}}', join(repo, model)));
      }
    writeFileSync(join(repo, 'labels.txt'), 'a\nb\nc\nd\n');
    const backends = coreBackendDirectory(join(root, 'backends'), ['stub', 'pytorch']);
    // '..' is asked for by name: a load request, which core validates from 26.03.
    const models = [...Object.keys(CASES), '..'];
    for (const { core } of CORES) {
      const got = await coreVerdicts(core, repo, { models, backends });
      verdicts.set(core, new Map(got.map((v) => [v.model, v])));
    }
  }, 600_000);

  it("the cores' verdicts: each fact on its side of the release it came in", () => {
    for (const { core, as } of CORES) {
      for (const [model, c] of Object.entries(CASES)) {
        const v = verdicts.get(core)!.get(model)!;
        const want = c.expect[as];
        if ('loads' in want) {
          expect([core, model, v.loaded, reason(v)]).toEqual([core, model, true, '']);
          const fields = Object.fromEntries(Object.keys(want.loads).map((k) => [k, v.config?.[k] === '' ? undefined : v.config?.[k]]));
          expect([core, model, fields]).toEqual([core, model, want.loads]);
        } else {
          expect([core, model, v.loaded]).toEqual([core, model, false]);
          expect(reason(v), `${core} ${model}`).toMatch(want.refuses);
        }
      }
    }
    // The name of a load request: r26.06 says core's words for it (MODEL_NAME_REFUSALS), r24.10 looks for the model.
    expect(reason(verdicts.get('r26.06')!.get('..')!)).toBe(MODEL_NAME_REFUSALS.traversal('..'));
    expect(reason(verdicts.get('main-73aad7c')!.get('..')!)).toBe(MODEL_NAME_REFUSALS.traversal('..'));
    expect(reason(verdicts.get('r24.10')!.get('..')!)).not.toContain('path traversal');
  });

  it('tritonc told the same release: refuses what the core refuses (by the rule that covers it), accepts what it loads, auto-fills as it does', () => {
    for (const { release, as } of CORES) {
      const target = parseTarget(release);
      for (const [model, c] of Object.entries(CASES)) {
        const dir = join(repo, model);
        const result = lintSync([dir], { cwd: repo, rules: CORE_RULES, settings: DEFAULT_SETTINGS, server: { target }, gpuCount: 0 });
        const errors = result.results.flatMap((r) => r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.ruleId));
        const want = c.expect[as];
        if ('loads' in want) {
          expect([release, model, errors]).toEqual([release, model, []]);
          const config = resolveModelDir(dir, { gpus: 0, target }).config ?? {};
          const fields = Object.fromEntries(Object.keys(want.loads).map((k) => [k, (config as Record<string, unknown>)[k]]));
          expect([release, model, fields]).toEqual([release, model, want.loads]);
        } else expect([release, model, errors]).toEqual([release, model, [want.rule]]);
      }
    }
  });
});
