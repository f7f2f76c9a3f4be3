import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { backendLibrary } from '../../src/lint/rules/correctness/backend-library.js';
import { lintDir, writeRepo } from '../lint/harness.js';
import { findBackendLibrary } from '../../src/triton/backend-library-search.js';
import { MEMORY_ROOT, testRule, type CaseFile } from '../support/rule-tester.js';

// The search of core src/backend_model.cc (r24.10) GetBackendLibraryProperties, over a set of paths.
const search = (present: string[], backend: string, runtime = '') =>
  findBackendLibrary(
    { modelDir: '/r/m', version: 1, backendDirectory: '/b', backend, runtime },
    { exists: (p) => present.includes(p) || Object.hasOwn(links, p), realpath: (p) => links[p] ?? p },
  );
/** Symbolic links: path -> where it leads. */
let links: Record<string, string> = {};

describe('findBackendLibrary (core TritonModel::GetBackendLibraryProperties)', () => {
  it('looks in the version directory, the model directory, then <backends>/<backend>: the first wins', () => {
    expect(search(['/b/identity/libtriton_identity.so'], 'identity')).toEqual({ kind: 'found', path: '/b/identity/libtriton_identity.so', pythonBased: false });
    expect(search(['/r/m/libtriton_identity.so', '/b/identity/libtriton_identity.so'], 'identity')).toMatchObject({ path: '/r/m/libtriton_identity.so' });
    expect(search(['/r/m/1/libtriton_identity.so', '/r/m/libtriton_identity.so'], 'identity')).toMatchObject({ path: '/r/m/1/libtriton_identity.so' });
  });

  it("no C++ library: a Python-based backend (<backends>/<backend>/model.py) on the Python backend's library", () => {
    expect(search(['/b/mine/model.py', '/b/python/libtriton_python.so'], 'mine')).toEqual({
      kind: 'found',
      path: '/b/python/libtriton_python.so',
      pythonBased: true,
    });
    expect(search(['/b/mine/model.py'], 'mine')).toEqual({
      kind: 'noLibrary',
      library: 'libtriton_python.so',
      searched: ['/r/m/1', '/r/m', '/b/mine', '/b/python'],
      pythonBased: true,
    });
    expect(search([], 'unknown')).toMatchObject({ kind: 'noLibraryForBackend', backend: 'unknown' });
  });

  it('runtime names the file instead; runtime model.py needs <backends>/<backend>/model.py', () => {
    expect(search(['/r/m/libcustom.so'], 'identity', 'libcustom.so')).toEqual({ kind: 'found', path: '/r/m/libcustom.so', pythonBased: false });
    expect(search(['/b/identity/libtriton_identity.so'], 'identity', 'libcustom.so')).toEqual({
      kind: 'noLibrary',
      library: 'libcustom.so',
      searched: ['/r/m/1', '/r/m', '/b/identity'],
      pythonBased: false,
    });
    expect(search(['/b/python/libtriton_python.so'], 'mine', 'model.py')).toEqual({
      kind: 'noPythonBasedLibrary',
      library: 'model.py',
      searched: ['/b/mine/model.py'],
    });
    expect(search(['/b/python/libtriton_python.so', '/b/mine/model.py'], 'mine', 'model.py')).toMatchObject({ kind: 'found', pythonBased: true });
  });

  it("a library named by runtime, or the Python backend's, may not lead out of its directory; one found by name may", () => {
    links = {
      '/b/python/libtriton_python.so': '/wheel/python/libtriton_python.so',
      '/b/identity/libtriton_identity.so': '/wheel/identity/libtriton_identity.so',
      '/r/m/libcustom.so': '/elsewhere/libcustom.so',
    };
    try {
      expect(search(['/b/mine/model.py'], 'mine')).toEqual({
        kind: 'escapes',
        library: 'libtriton_python.so',
        dir: '/b/python',
        path: '/b/python/libtriton_python.so',
      });
      expect(search([], 'identity')).toMatchObject({ kind: 'found', path: '/b/identity/libtriton_identity.so' });
      expect(search([], 'identity', 'libcustom.so')).toMatchObject({ kind: 'escapes', library: 'libcustom.so', dir: '/r/m' });
    } finally {
      links = {};
    }
  });
});

// Symbolic links need the disk: a Python backend linked in from another installation.
describe('backend-library on disk', () => {
  it("the Python backend's library linked from elsewhere, under a Python-based backend: core's escape check", async () => {
    const dir = await writeRepo({
      'repo/m/config.pbtxt': 'backend: "mine"\n',
      'repo/m/1/w.bin': '',
      'backends/mine/model.py': '',
      'wheel/python/libtriton_python.so': '',
    });
    mkdirSync(join(dir, 'backends', 'python'));
    symlinkSync(join(dir, 'wheel', 'python', 'libtriton_python.so'), join(dir, 'backends', 'python', 'libtriton_python.so'));
    const found = lintDir(dir, ['repo'], { rules: [backendLibrary], server: { backendDirectory: join(dir, 'backends') } }).results.flatMap(
      (r) => r.diagnostics,
    );
    expect(found.map((d) => ({ messageId: d.messageId, data: d.data }))).toEqual([
      {
        messageId: 'libraryEscapes',
        data: { library: 'libtriton_python.so', dir: join(dir, 'backends', 'python'), model: 'm', target: join(dir, 'wheel', 'python', 'libtriton_python.so') },
      },
    ]);
  });
});

const BACKENDS = `${MEMORY_ROOT}/backends`;
const SERVER = { server: { backendDirectory: 'backends' } };
const installed = (...names: string[]): Record<string, CaseFile> => Object.fromEntries(names.map((n) => [`backends/${n}/libtriton_${n}.so`, '']));

testRule('backend-library', {
  valid: [
    {
      name: 'the backend is installed',
      files: { ...installed('onnxruntime'), 'm/config.pbtxt': 'backend: "onnxruntime"\n', 'm/1/model.onnx': '' },
      settings: SERVER,
    },
    {
      name: "a custom backend's library in the model directory",
      files: { ...installed('python'), 'm.mine/config.pbtxt': '', 'm.mine/libtriton_mine.so': '', 'm.mine/1/w.bin': '' },
      targets: ['m.mine'],
      settings: SERVER,
    },
    {
      name: "a custom backend's library in the version directory",
      files: { 'm/config.pbtxt': 'backend: "mine"\n', 'm/1/libtriton_mine.so': '' },
      settings: SERVER,
    },
    {
      name: 'a Python-based backend',
      files: { ...installed('python'), 'backends/mine/model.py': '', 'm/config.pbtxt': 'backend: "mine"\n', 'm/1/w.bin': '' },
      settings: SERVER,
    },
    { name: "without the server's backend directory nothing is known", files: { 'm.unknown/config.pbtxt': '', 'm.unknown/1/': '' }, targets: ['m.unknown'] },
    { name: 'an ensemble has no backend library', files: { 'm/config.pbtxt': 'platform: "ensemble"\n' }, settings: SERVER },
    // The images' backends (src/triton/releases/flavours.ts, from tensorrtllm_backend build.sh and server build.py).
    {
      name: 'a TensorRT-LLM model on the trtllm image',
      files: { 'm/config.pbtxt': 'backend: "tensorrtllm"\n', 'm/1/': '' },
      settings: { triton: '24.11-trtllm-python-py3' },
    },
    {
      name: 'an ONNX model on the full py3 image of the same release',
      files: { 'm/config.pbtxt': 'platform: "onnxruntime_onnx"\n', 'm/1/model.onnx': '' },
      settings: { triton: 'nvcr.io/nvidia/tritonserver:24.11-py3' },
    },
    {
      name: "an ONNX model on the trtllm image with the ONNX Runtime backend's library beside it (core looks there first)",
      files: { 'm/config.pbtxt': 'backend: "onnxruntime"\n', 'm/libtriton_onnxruntime.so': '', 'm/1/model.onnx': '' },
      settings: { triton: '24.11-trtllm-python-py3' },
    },
    {
      name: "a backend of the user's own: any image may have it installed",
      files: { 'm/config.pbtxt': 'backend: "mine"\n', 'm/1/': '' },
      settings: { triton: '24.11-trtllm-python-py3' },
    },
    {
      name: 'a TensorFlow model on the py3 image of 25.02, the last that has the TensorFlow backend',
      files: { 'm/config.pbtxt': 'backend: "tensorflow"\n', 'm/1/': '' },
      settings: { triton: '25.02-py3' },
    },
    {
      name: 'a TensorFlow model on the tf2-python-py3 image of 25.02, the last that has one',
      files: { 'm/config.pbtxt': 'backend: "tensorflow"\n', 'm/1/': '' },
      settings: { triton: '25.02-tf2-python-py3' },
    },
    {
      name: "a TensorFlow model on the 25.03 py3 image: 25.03 builds no TensorFlow backend, platform-backend's finding (backendDropped)",
      files: { 'm/config.pbtxt': 'backend: "tensorflow"\n', 'm/1/': '' },
      settings: { triton: '25.03-py3' },
    },
    {
      name: 'no image named (a release only): which image runs is not known',
      files: { 'm/config.pbtxt': 'backend: "tensorrtllm"\n', 'm/1/': '' },
      settings: { triton: '24.11' },
    },
  ],
  invalid: [
    {
      name: "qa/L0_model_config autofill_noplatform/custom/unknown_backend.unknown: Triton's own case",
      files: { ...installed('identity', 'python'), 'unknown_backend.unknown/config.pbtxt': '', 'unknown_backend.unknown/1/': '' },
      targets: ['unknown_backend.unknown'],
      settings: SERVER,
      errors: [
        {
          messageId: 'noLibraryForBackend',
          severity: 'error',
          data: { backend: 'unknown', library: 'libtriton_unknown.so', backendPath: `${BACKENDS}/unknown` },
        },
      ],
      output: null,
    },
    {
      name: 'a typo of an installed backend: suggested, never applied by --fix',
      files: { ...installed('onnxruntime'), 'm/config.pbtxt': 'backend: "onnxruntim"\n', 'm/1/model.onnx': '' },
      settings: SERVER,
      errors: [{ messageId: 'noLibraryForBackendDidYouMean', line: 1, token: '"onnxruntim"', data: { backend: 'onnxruntim', suggestion: 'onnxruntime' } }],
      suggestions: ['backend: "onnxruntime"\n'],
      output: null,
    },
    {
      name: 'a server without the backend the platform needs (a Python-only server and an ONNX model)',
      files: { ...installed('python'), 'm/config.pbtxt': 'platform: "onnxruntime_onnx"\n', 'm/1/model.onnx': '' },
      settings: SERVER,
      errors: [{ messageId: 'noLibraryForBackend', path: ['platform'], data: { backend: 'onnxruntime' } }],
    },
    {
      name: '--backend-directory on the command line, as tritonserver takes it',
      files: { ...installed('python'), 'm/config.pbtxt': 'backend: "onnxruntime"\n', 'm/1/model.onnx': '' },
      options: { server: { backendDirectory: BACKENDS } },
      errors: [{ messageId: 'noLibraryForBackend', data: { backend: 'onnxruntime', backendPath: `${BACKENDS}/onnxruntime` } }],
    },
    {
      name: "runtime names a library that is nowhere: core's searched list",
      files: { ...installed('identity'), 'm/config.pbtxt': 'backend: "identity"\nruntime: "libcustom.so"\n', 'm/1/': '' },
      settings: SERVER,
      errors: [
        {
          messageId: 'noRuntimeLibrary',
          line: 2,
          data: { library: 'libcustom.so', model: 'm', searched: `'${MEMORY_ROOT}/m/1' '${MEMORY_ROOT}/m' '${BACKENDS}/identity' ` },
        },
      ],
    },
    {
      name: 'a Python-based backend on a server without the Python backend',
      files: { 'backends/mine/model.py': '', 'm/config.pbtxt': 'backend: "mine"\n', 'm/1/': '' },
      settings: SERVER,
      errors: [{ messageId: 'noPythonBackendLibrary', data: { backend: 'mine', library: 'libtriton_python.so', pythonPath: `${BACKENDS}/python` } }],
    },
    {
      name: 'an ONNX model on the trtllm image, which has no onnxruntime backend: the image that has it named',
      files: { 'm/config.pbtxt': 'platform: "onnxruntime_onnx"\n', 'm/1/model.onnx': '' },
      settings: { triton: 'nvcr.io/nvidia/tritonserver:24.11-trtllm-python-py3' },
      errors: [
        {
          messageId: 'notInImage',
          path: ['platform'],
          data: {
            image: 'nvcr.io/nvidia/tritonserver:24.11-trtllm-python-py3',
            backend: 'onnxruntime',
            others: 'nvcr.io/nvidia/tritonserver:24.11-py3',
            library: 'libtriton_onnxruntime.so',
          },
        },
      ],
    },
    {
      name: 'a TensorRT-LLM model on the full py3 image, which has no LLM backend',
      files: { 'm/config.pbtxt': 'backend: "tensorrtllm"\n', 'm/1/': '' },
      settings: { triton: '24.11-py3' },
      errors: [{ messageId: 'notInImage', data: { backend: 'tensorrtllm', others: 'nvcr.io/nvidia/tritonserver:24.11-trtllm-python-py3' } }],
    },
    {
      name: 'a vLLM model on the trtllm image',
      files: { 'm/config.pbtxt': 'backend: "vllm"\n', 'm/1/model.json': '{"model": "facebook/opt-125m"}' },
      settings: { triton: '25.01-trtllm-python-py3' },
      errors: [{ messageId: 'notInImage', data: { backend: 'vllm', others: 'nvcr.io/nvidia/tritonserver:25.01-vllm-python-py3' } }],
    },
    {
      name: 'a TensorFlow model on the 25.02 py3 image, the last with the TensorFlow backend: no finding; on the pyt-python image one',
      files: { 'm/config.pbtxt': 'backend: "tensorflow"\n', 'm/1/': '' },
      settings: { triton: '25.02-pyt-python-py3' },
      errors: [
        {
          messageId: 'notInImage',
          data: { backend: 'tensorflow', others: 'nvcr.io/nvidia/tritonserver:25.02-py3 or nvcr.io/nvidia/tritonserver:25.02-tf2-python-py3' },
        },
      ],
    },
    {
      name: "runtime model.py without the backend's model.py",
      files: { ...installed('python'), 'm/config.pbtxt': 'backend: "mine"\nruntime: "model.py"\n', 'm/1/': '' },
      settings: SERVER,
      errors: [{ messageId: 'noPythonBasedLibrary', data: { runtime: 'model.py', backend: 'mine', path: `${BACKENDS}/mine/model.py` } }],
    },
  ],
});
