// The two test commands (vitest.config.ts): `npm test` runs the fast suites, which need only the
// repository; `npm run test:heavy` runs the suites that drive a real thing outside it — the real
// tritonserver, the corpus of real configs, the end-to-end installs and editors, the container, the
// reference C++ parser, the Python type checkers, KServe's CRDs. CI (.ci/run) runs both. Every test file is in
// exactly one of them (test/suites.test.ts): a new file is fast unless it is here or starts the real
// Triton, which puts it in the heavy suites by itself wherever it lives.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Where vitest looks for tests, both commands together. */
export const TEST_GLOB = 'test/**/*.test.ts';

/** The heavy suites by place: folders and files whose every test needs a real thing outside the repository. */
export const HEAVY_GLOBS = [
  // The corpus of real Triton configs, and the live server on it.
  'test/conformance/**/*.test.ts',
  // pre-commit, npm pack, git installs, Neovim.
  'test/e2e/**/*.test.ts',
  // tritonc verify in the container runtime (podman) on the real tritonserver.
  'test/verify/integration.test.ts',
  // Google's C++ text-format parser, compiled for the differential test.
  'test/pbtxt/differential-cpp.test.ts',
  // The generated Python clients and runtime under mypy --strict and ruff (the venvs).
  'test/client/python-client.test.ts',
  'test/client/python-grpc-client.test.ts',
  'test/client/runtime-check.test.ts',
  // The OpenVINO exporter run again (the exporters' venv).
  'test/openvino/re-export.test.ts',
  // KServe's kinds against KServe's CRDs (scripts/kserve-crds/setup.sh, from KServe's Go module).
  'test/deployment/kserve-schema.test.ts',
  // Helm charts rendered by the real helm (scripts/helm/setup.sh, from the Go module proxy).
  'test/deployment/lint-chart.test.ts',
  // Helm charts rendered by the real helm (scripts/helm/setup.sh).
  'test/deployment/helm.test.ts',
];

/** A test file that calls one of these (test/support/real-triton.ts) drives the real tritonserver. */
const REAL_TRITON = /\b(?:startRealTriton|realTritonRuns|realBackendsRun|haveBackend)\(/;

/** Every test file under test/, as a path relative to the repository with `/` between its parts. */
export function testFiles(): string[] {
  return readdirSync(join(ROOT, 'test'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) =>
      relative(ROOT, join(ROOT, 'test', f))
        .split(sep)
        .join('/'),
    )
    .sort();
}

/** The test files that drive the real tritonserver, wherever they are. */
export function realTritonFiles(files: readonly string[] = testFiles()): string[] {
  return files.filter((f) => REAL_TRITON.test(readFileSync(join(ROOT, f), 'utf8')));
}
