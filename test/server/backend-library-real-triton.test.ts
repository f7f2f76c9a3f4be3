// backend-library against the real tritonserver 2.51: the same repository linted with
// --backend-directory and loaded into a server started with that backend directory. For each model
// the server refuses for want of a library, its answer is the message tritonc's finding carries,
// made from the finding's data; the model it loads is clean. Needs the venv and a C compiler (the
// stub backend of test/conformance/live.ts); skipped with one line without them.
import { cpSync, existsSync, mkdirSync, readdirSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lintSync } from '../../src/lint/engine.js';
import { RULES } from '../../src/lint/rules/index.js';
import { backendDirectory, haveCc, loadVerdict, startServer, STUB_MODEL_PY, type Server } from '../conformance/live.js';
import { realTritonRuns } from '../support/real-triton.js';
import { tempDir } from '../support/temp.js';

const runs =
  realTritonRuns('real-Triton backend-library tests') &&
  (haveCc || process.env.CI === 'true' ? true : (console.log('tritonc: real-Triton backend-library tests skipped: no C compiler for the stub backend'), false));
const SHM_PREFIX = 'triton_bl_test_';

/** The models: what each says of its backend, and the files beside it. */
const MODELS: Record<string, Record<string, string>> = {
  // qa/L0_model_config autofill_noplatform/custom/unknown_backend.unknown
  'unknown_backend.unknown': { 'config.pbtxt': '', '1/.keep': '' },
  // A server without ONNX Runtime (the wheel's has only Python) and an ONNX model's config.
  onnx_model: {
    'config.pbtxt':
      'platform: "onnxruntime_onnx"\nmax_batch_size: 0\ninput [ { name: "x" data_type: TYPE_FP32 dims: [ 1 ] } ]\noutput [ { name: "y" data_type: TYPE_FP32 dims: [ 1 ] } ]\n',
    '1/model.onnx': '',
  },
  // runtime names a library that is nowhere.
  custom_runtime: { 'config.pbtxt': 'backend: "identity"\nruntime: "libcustom.so"\nmax_batch_size: 0\n', '1/.keep': '' },
  // runtime model.py: a Python-based backend whose model.py is not in <backends>/<backend>.
  python_based_missing: { 'config.pbtxt': 'backend: "pybased"\nruntime: "model.py"\nmax_batch_size: 0\n', '1/.keep': '' },
  // A Python-based backend that is installed: it loads.
  python_based: {
    'config.pbtxt':
      'backend: "mine"\nmax_batch_size: 0\ninput [ { name: "x" data_type: TYPE_FP32 dims: [ 1 ] } ]\noutput [ { name: "y" data_type: TYPE_FP32 dims: [ 1 ] } ]\n',
    '1/.keep': '',
  },
  // runtime names a library in the model directory that is a link to one elsewhere (made in beforeAll).
  linked_runtime: { 'config.pbtxt': 'backend: "identity"\nruntime: "libtriton_linked.so"\nmax_batch_size: 0\n', '1/.keep': '' },
  // runtime names the backend's own library: found, and inside its directory, so it loads.
  identity_by_runtime: {
    'config.pbtxt':
      'backend: "identity"\nruntime: "libtriton_identity.so"\nmax_batch_size: 0\ninput [ { name: "x" data_type: TYPE_FP32 dims: [ 1 ] } ]\noutput [ { name: "y" data_type: TYPE_FP32 dims: [ 1 ] } ]\n',
    '1/.keep': '',
  },
  // A stub backend the directory has: it loads.
  identity_model: {
    'config.pbtxt':
      'backend: "identity"\nmax_batch_size: 0\ninput [ { name: "x" data_type: TYPE_FP32 dims: [ 1 ] } ]\noutput [ { name: "y" data_type: TYPE_FP32 dims: [ 1 ] } ]\n',
    '1/.keep': '',
  },
};

/** Triton's message, made from a finding's data the way core makes it (backend_model.cc r24.10). */
function tritonMessage(messageId: string, d: Record<string, unknown>): string {
  switch (messageId) {
    case 'noLibraryForBackend':
    case 'noLibraryForBackendDidYouMean':
      return `unable to find backend library for backend '${d.backend}', try specifying runtime on the model configuration.`;
    case 'noRuntimeLibrary':
    case 'noPythonBackendLibrary':
      return `unable to find backend library '${d.library}' for model '${d.model}', searched: ${d.searched}`;
    case 'libraryEscapes':
      return `backend library name '${d.library}' escapes backend directory '${d.dir}', for model '${d.model}', check model config runtime field`;
    case 'noPythonBasedLibrary':
      return `unable to find Python backend based backend library '${d.runtime}' for model '${d.model}', searched: '${d.path}'`;
    default:
      throw new Error(`no Triton message for ${messageId}`);
  }
}

describe.skipIf(!runs)('backend-library against the real tritonserver 2.51', () => {
  let server: Server;
  let repo = '';
  let backends = '';
  const shm = (): string[] => (existsSync('/dev/shm') ? readdirSync('/dev/shm').filter((f) => f.startsWith(SHM_PREFIX)) : []);

  beforeAll(async () => {
    // Real paths: core reports the paths it searched as the repository path joins them.
    const root = realpathSync(tempDir('tritonc-backend-library-'));
    repo = join(root, 'models');
    for (const [name, files] of Object.entries(MODELS)) {
      for (const [file, text] of Object.entries(files)) {
        mkdirSync(join(repo, name, file, '..'), { recursive: true });
        writeFileSync(join(repo, name, file), text);
      }
    }
    backends = backendDirectory(join(root, 'backends'), ['identity']);
    // The Python backend as NVIDIA's container has it, its files in their directory (live.ts links
    // them from the venv, and core refuses the Python backend's library under a Python-based backend
    // when it leads elsewhere: the 'linked' backend below).
    const linked = readlinkSync(join(backends, 'python'));
    rmSync(join(backends, 'python'));
    cpSync(linked, join(backends, 'python'), { recursive: true, dereference: true });
    mkdirSync(join(backends, 'mine'));
    writeFileSync(join(backends, 'mine', 'model.py'), STUB_MODEL_PY);
    symlinkSync(join(backends, 'identity', 'libtriton_identity.so'), join(repo, 'linked_runtime', 'libtriton_linked.so'));
    server = await startServer(repo, backends, [`--backend-config=python,shm-region-prefix-name=${SHM_PREFIX}`], false);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    for (const f of shm()) rmSync(join('/dev/shm', f), { force: true });
  });

  it('the server refuses each model tritonc reports, with the message its finding carries, and loads the others', async () => {
    const findings = lintSync([repo], { cwd: repo, rules: RULES, server: { backendDirectory: backends } })
      .results.flatMap((r) => r.diagnostics)
      .filter((d) => d.ruleId === 'backend-library');
    const said = new Map(findings.map((f) => [f.file.slice(repo.length + 1).split('/')[0]!, tritonMessage(f.messageId!, f.data ?? {})]));
    const outcomes: Record<string, string> = {};
    for (const name of Object.keys(MODELS)) {
      const v = await loadVerdict(server, name);
      outcomes[name] = v.how === 'loaded' ? 'loads' : v.reason;
    }
    const expected = Object.fromEntries(Object.keys(MODELS).map((name) => [name, said.get(name) ?? 'loads']));
    expect(outcomes).toEqual(expected);
    // The cases this covers: each of the rule's messages, and both ways a library is found.
    expect([...new Set(findings.map((f) => f.messageId))].sort()).toEqual([
      'libraryEscapes',
      'noLibraryForBackend',
      'noPythonBasedLibrary',
      'noRuntimeLibrary',
    ]);
    expect(Object.values(outcomes).filter((o) => o === 'loads')).toHaveLength(3);
  }, 180_000);
});
