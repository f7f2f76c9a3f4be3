// Repositories in object storage, linted through real servers on loopback (s3rver, Azurite) and a
// protocol fixture of the GCS JSON API: the findings are those of the same repository on local disk,
// named by object URL; the model headers cost a few ranged reads whatever the weights weigh.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeRepo, CLASSIFIER, CLASSIFIER_CONFIG } from '../lint/harness.js';
import { cli } from '../support/cli.js';
import { tempDir } from '../support/temp.js';
import {
  AZURITE_ACCOUNT,
  AZURITE_KEY,
  S3RVER_KEYS,
  startAzurite,
  startGcsFixture,
  startS3,
  type AzureFixture,
  type GcsFixture,
  type S3Fixture,
} from '../support/object-stores.js';

const WEIGHT_FLOATS = 4 * 1024 * 1024; // 16 MiB per initializer

let repo: string;
let s3: S3Fixture;
let azure: AzureFixture;
let gcs: GcsFixture;

beforeAll(async () => {
  repo = await writeRepo({
    // Large weights: the header must be read without them.
    'classifier/config.pbtxt': CLASSIFIER_CONFIG,
    'classifier/1/model.onnx': {
      ...CLASSIFIER,
      initializers: [
        { name: 'w1', floats: WEIGHT_FLOATS },
        { name: 'w2', floats: WEIGHT_FLOATS },
      ],
    },
    // A fixed batch dimension under max_batch_size > 0.
    'fixed/config.pbtxt': CLASSIFIER_CONFIG.replace('"classifier"', '"fixed"'),
    'fixed/1/model.onnx': { inputs: [['input', 'FLOAT', [1, 3, 224, 224]]], outputs: [['output', 'FLOAT', [1, 1000]]] },
    // A syntax error, found at its line and column.
    'broken/config.pbtxt': 'name: "broken"\nbackend: "onnxruntime"\nmax_batch_size: 8\ninput [ { name: "x" data_type: TYPE_FP32 dims: [ 3 ] }\n',
    // A Python model (its model.py is fetched when a rule asks) and a TensorRT engine (sized from the listing).
    'post/config.pbtxt':
      'name: "post"\nbackend: "python"\nmax_batch_size: 8\ninput [ { name: "x" data_type: TYPE_FP32 dims: [ 1000 ] } ]\noutput [ { name: "y" data_type: TYPE_FP32 dims: [ 1000 ] } ]\ninstance_group [ { kind: KIND_GPU count: 2 } ]\n',
    'post/1/model.py':
      'import triton_python_backend_utils as pb_utils\n\nclass TritonPythonModel:\n    @staticmethod\n    def auto_complete_config(auto_complete_model_config):\n        auto_complete_model_config.set_max_batch_size(4)\n        return auto_complete_model_config\n',
    'engine/config.pbtxt': 'name: "engine"\nplatform: "tensorrt_plan"\nmax_batch_size: 8\ninstance_group [ { kind: KIND_GPU count: 4 } ]\n',
    'engine/1/model.plan': new Uint8Array(3 * 1024 * 1024),
    // An ensemble naming a model the repository does not have.
    'pipeline/config.pbtxt': `name: "pipeline"
platform: "ensemble"
max_batch_size: 8
input [ { name: "IMAGE" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]
output [ { name: "SCORES" data_type: TYPE_FP32 dims: [ 1000 ] } ]
ensemble_scheduling { step [
  { model_name: "classifier" model_version: -1 input_map { key: "input" value: "IMAGE" } output_map { key: "output" value: "SCORES" } },
  { model_name: "postprocess" model_version: -1 input_map { key: "x" value: "SCORES" } output_map { key: "y" value: "OUT" } }
] }
`,
  });
  [s3, azure, gcs] = await Promise.all([startS3(['models']), startAzurite(), startGcsFixture({ pageSize: 3 })]);
  await Promise.all([s3.upload('models', 'prod/repo', repo), azure.upload('models', 'prod/repo', repo)]);
  gcs.upload('models', 'prod/repo', repo);
}, 120_000);

afterAll(async () => {
  await Promise.all([s3?.close(), azure?.close(), gcs?.close()]);
});

type Store = 's3' | 'azure' | 'gcs';
const envs = (): Record<Store, { url: string; env: NodeJS.ProcessEnv }> => ({
  s3: { url: `s3://127.0.0.1:${s3.port}/models/prod/repo`, env: { ...S3RVER_KEYS } },
  azure: {
    url: `as://${AZURITE_ACCOUNT}/models/prod/repo`,
    env: { AZURE_STORAGE_ACCOUNT: AZURITE_ACCOUNT, AZURE_STORAGE_KEY: AZURITE_KEY, TRITONC_AZURE_BLOB_ENDPOINT: azure.endpoint },
  },
  gcs: { url: 'gs://models/prod/repo', env: { STORAGE_EMULATOR_HOST: gcs.endpoint } },
});

interface Shown {
  file: string;
  ruleId: string | null;
  line: number;
  column: number;
  message: string;
}

/** The JSON report's findings with the repository's location replaced by <repo>. */
function findingsOf(stdout: string, base: string): Shown[] {
  const results = JSON.parse(stdout) as { filePath: string; messages: { ruleId: string | null; line: number; column: number; message: string }[] }[];
  const rel = (s: string): string => s.split(base).join('<repo>');
  return results.flatMap((r) => r.messages.map((m) => ({ file: rel(r.filePath), ruleId: m.ruleId, line: m.line, column: m.column, message: rel(m.message) })));
}

describe('lint of a repository in object storage', () => {
  let local: Shown[];
  beforeAll(async () => {
    const r = await cli(['lint', '-f', 'json', repo], { cwd: tempDir() });
    expect(r.code).toBe(1);
    local = findingsOf(r.stdout, repo);
    // The repository holds the findings the comparison is about.
    expect(local.map((f) => f.ruleId)).toEqual(
      expect.arrayContaining(['syntax', 'missing-dynamic-axis', 'ensemble-models', 'instance-memory', 'unchecked-model']),
    );
  });

  for (const store of ['s3', 'azure', 'gcs'] as const) {
    it(`gives the local findings, named by object URL (${store})`, async () => {
      const { url, env } = envs()[store];
      const r = await cli(['lint', '-f', 'json', url], { cwd: tempDir(), env });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(1);
      const remote = findingsOf(r.stdout, url);
      expect(remote).toEqual(local);
      expect(JSON.parse(r.stdout)[0].filePath).toMatch(new RegExp(`^${url.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/`));
    });
  }

  it('names the objects in SARIF as absolute URIs', async () => {
    const { url, env } = envs().s3;
    const r = await cli(['lint', '-f', 'sarif', url], { cwd: tempDir(), env });
    const uris = (
      JSON.parse(r.stdout).runs[0].results as { locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string } } }[] }[]
    ).map((x) => x.locations[0]!.physicalLocation.artifactLocation);
    expect(uris.length).toBeGreaterThan(0);
    for (const a of uris) {
      expect(a.uri.startsWith(`${url}/`)).toBe(true);
      expect(a.uriBaseId).toBeUndefined();
    }
  });

  it('reads a model header with a few ranged reads, not its 32 MiB of weights', async () => {
    const { url, env } = envs().gcs;
    const before = { ...gcs.requests };
    const r = await cli(['lint', '-f', 'json', `${url}/classifier/config.pbtxt`], { cwd: tempDir(), env });
    expect(r.code).toBe(0);
    // The six configs come with the listing, then classifier's model.onnx by ranged reads: one
    // to start, one past each of its two initializers' data, one for the graph's inputs and outputs.
    expect(gcs.requests.media - before.media).toBeLessThanOrEqual(6 + 4);
    expect(gcs.requests.bytes - before.bytes).toBeLessThan(1024 * 1024);
    expect(JSON.parse(r.stdout)[0].messages.map((m: { ruleId: string }) => m.ruleId)).toContain('instance-memory');
  });
});

describe('a repository the store will not give', () => {
  const lint = (url: string, env: NodeJS.ProcessEnv) => cli(['lint', url], { cwd: tempDir(), env });

  it('no such bucket: exit 2, with how Triton reads the URL', async () => {
    const r = await lint(`s3://127.0.0.1:${s3.port}/nosuchbucket/repo`, S3RVER_KEYS);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^tritonc lint: s3:\/\/127\.0\.0\.1:\d+\/nosuchbucket\/repo: cannot list the repository: there is no bucket "nosuchbucket" \(NoSuchBucket.*\); Triton reads it as bucket "nosuchbucket", key prefix "repo", at the endpoint http:\/\/127\.0\.0\.1:\d+ \(path-style\)\n$/,
    );
  });

  it('no objects under the prefix: exit 2', async () => {
    const r = await lint(`s3://127.0.0.1:${s3.port}/models/prod/nothing-here`, S3RVER_KEYS);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/nothing-here: no objects under it, so no repository; Triton reads it as bucket "models", key prefix "prod\/nothing-here"/);
  });

  // s3rver checks the access key id, not SigV4 signatures (lib/middleware/authentication.js:
  // "Signature version 4 calculation is unimplemeneted"): an unknown key id is its refusal.
  it('access denied: exit 2, naming the credential source used', async () => {
    const r = await lint(`s3://127.0.0.1:${s3.port}/models/prod/repo`, { AWS_ACCESS_KEY_ID: 'NOT-A-KEY', AWS_SECRET_ACCESS_KEY: 'wrong' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/access denied \(InvalidAccessKeyId.*\), with the credential from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/);
  });

  it('access denied with a credential file: names its entry', async () => {
    const dir = tempDir();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`${dir}/creds.json`, JSON.stringify({ s3: { [`s3://127.0.0.1:${s3.port}/models`]: { key_id: 'NOT-A-KEY', secret_key: 'nope' } } }));
    const r = await lint(`s3://127.0.0.1:${s3.port}/models/prod/repo`, { ...S3RVER_KEYS, TRITON_CLOUD_CREDENTIAL_PATH: `${dir}/creds.json` });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/with the credential from TRITON_CLOUD_CREDENTIAL_PATH=.*creds\.json, entry "s3:\/\/127\.0\.0\.1:\d+\/models" of "s3"/);
  });

  it('an endpoint nothing answers on: exit 2, unreachable', async () => {
    const r = await lint('s3://127.0.0.1:1/models/repo', S3RVER_KEYS);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:1 \(.*ECONNREFUSED/);
  });

  it('an Azure container that is not there, and a URL Triton would not parse', async () => {
    const { env } = envs().azure;
    const missing = await lint(`as://${AZURITE_ACCOUNT}/nocontainer/repo`, env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/there is no container "nocontainer"/);
    const bad = await lint('as://account-only', env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Invalid azure storage path/);
  });

  it('a GCS bucket that is not there', async () => {
    const r = await lint('gs://nobucket/repo', envs().gcs.env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/there is no bucket "nobucket"/);
  });

  it('refuses --fix: tritonc never writes to a store', async () => {
    const { url, env } = envs().s3;
    const r = await cli(['lint', '--fix', url], { cwd: tempDir(), env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/never writes to object storage/);
  });
});

describe('--model-repository URLs', () => {
  it('serves a local repository and one in S3 together: the ensemble finds its step across them', async () => {
    const { url, env } = envs().s3;
    const local = await writeRepo({
      'postprocess/config.pbtxt':
        'name: "postprocess"\nbackend: "python"\nmax_batch_size: 8\ninput [ { name: "x" data_type: TYPE_FP32 dims: [ 1000 ] } ]\noutput [ { name: "y" data_type: TYPE_FP32 dims: [ 1000 ] } ]\n',
      'postprocess/1/model.py': 'class TritonPythonModel:\n    pass\n',
    });
    const alone = await cli(['lint', '-f', 'json', '--model-repository', url], { cwd: tempDir(), env });
    const together = await cli(['lint', '-f', 'json', '--model-repository', url, '--model-repository', local], { cwd: tempDir(), env });
    const ensembleFindings = (out: string) =>
      (JSON.parse(out) as { filePath: string; messages: { ruleId: string; message: string }[] }[]).flatMap((f) =>
        f.messages.filter((m) => m.ruleId === 'ensemble-models' && /postprocess/.test(m.message)),
      );
    expect(ensembleFindings(alone.stdout).length).toBeGreaterThan(0);
    expect(ensembleFindings(together.stdout)).toEqual([]);
  });
});

describe('on a terminal and off it', () => {
  it('shows objects fetched on a terminal, and erases the line before the report', async () => {
    const { url, env } = envs().s3;
    const r = await cli(['lint', url], { cwd: tempDir(), env, stderrIsTTY: true });
    expect(r.stderr).toMatch(/\r\x1b\[Ktritonc lint: objects \d+\/\d+/);
    expect(r.stderr.endsWith('\r\x1b[K')).toBe(true);
    const quiet = await cli(['lint', '--quiet', url], { cwd: tempDir(), env, stderrIsTTY: true });
    expect(quiet.stderr).toBe('');
  });

  it("proposes Triton's form for a path that looks like a URL and is not", async () => {
    const r = await cli(['lint', 'S3://models/repo'], { cwd: tempDir() });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'tritonc lint: S3://models/repo: no such file or directory (a repository URL is written in lower case with two slashes, as Triton reads it: s3://models/repo)\n',
    );
  });
});
