// ONNX external data whose location leads out of the model's directory: an absolute path, "..", a
// link to a file outside, a link to a directory outside. ONNX Runtime refuses each (asserted below on
// onnxruntime-node itself), so Triton cannot load the model: tritonc says so, with the tensor and the
// location, and never stats the file outside, whose size would otherwise show in inspect, the lock
// and the memory estimate. A link that stays inside, and a plain file beside the model, load.
import fs from 'node:fs';
import path from 'node:path';
import ort from 'onnxruntime-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enterPrivateTemp } from '../../src/util/private-temp.js';
import { model, node, tensorInfo, T, writeModel } from '../../fixtures/onnx/model-builder.js';
import { ModelReadError } from '../../src/model-file/errors.js';
import { readSignature, readSignatureSync } from '../../src/onnx/reader.js';
import { formatBytes } from '../../src/lint/units.js';
import { cli, tempDir } from '../support/cli.js';
import { startHostileS3 } from '../../fixtures/remote/hostile-s3.mjs';

// A size no model here has, so finding it anywhere in an output means the outside file was stat-ed.
const SECRET_BYTES = 777_777;
const SECRET_SHOWN = [String(SECRET_BYTES), formatBytes(SECRET_BYTES)];

let root: string;
let repo: string;

interface Case {
  messageId: 'onnxExternalAbsolute' | 'onnxExternalParent' | 'onnxExternalLink';
  location: () => string;
  setup?: (dir: string) => void;
}

const OUTSIDE: Record<string, Case> = {
  absolute: { messageId: 'onnxExternalAbsolute', location: () => path.join(root, 'secret.bin') },
  parent: { messageId: 'onnxExternalParent', location: () => '../../../secret.bin' },
  'parent, normalized': { messageId: 'onnxExternalParent', location: () => 'sub/../../../../secret.bin' },
  'link to a file outside': {
    messageId: 'onnxExternalLink',
    location: () => 'bias.bin',
    setup: (d) => fs.symlinkSync(path.join(root, 'secret.bin'), path.join(d, 'bias.bin')),
  },
  'link to a directory outside': { messageId: 'onnxExternalLink', location: () => 'sub/secret.bin', setup: (d) => fs.symlinkSync(root, path.join(d, 'sub')) },
};

const INSIDE: Record<string, Omit<Case, 'messageId'>> = {
  'a file beside the model': { location: () => 'bias.bin', setup: (d) => fs.writeFileSync(path.join(d, 'bias.bin'), Buffer.alloc(32)) },
  'a link that stays inside': {
    location: () => 'bias.bin',
    setup: (d) => {
      fs.writeFileSync(path.join(d, 'real.bin'), Buffer.alloc(32));
      fs.symlinkSync('real.bin', path.join(d, 'bias.bin'));
    },
  },
};

const dirName = (name: string): string => name.replace(/[^a-z]+/g, '_');
const modelOf = (name: string): string => path.join(repo, dirName(name), '1', 'model.onnx');

/** Y = X + B, B [8] FLOAT kept as external data at `location` (no length key: sized from the file). */
async function writeCase(name: string, c: Omit<Case, 'messageId'>): Promise<void> {
  const dir = path.join(repo, dirName(name), '1');
  fs.mkdirSync(dir, { recursive: true });
  c.setup?.(dir);
  fs.writeFileSync(path.join(repo, dirName(name), 'config.pbtxt'), 'platform: "onnxruntime_onnx"\nmax_batch_size: 0\n');
  await writeModel(
    path.join(dir, 'model.onnx'),
    model({
      name: 'g',
      node: [node('Add', ['X', 'B'], ['Y'])],
      initializer: [{ name: 'B', dataType: T.FLOAT, dims: [8], dataLocation: 1, externalData: [{ key: 'location', value: c.location() }] }],
      input: [tensorInfo('X', T.FLOAT, [8])],
      output: [tensorInfo('Y', T.FLOAT, [8])],
    }),
  );
}

// onnxruntime-node litters TMPDIR with every session (src/util/private-temp.ts).
let leaveTemp: () => void = () => {};
afterAll(() => leaveTemp());

beforeAll(async () => {
  leaveTemp = enterPrivateTemp();
  root = fs.realpathSync(tempDir('tritonc-external-'));
  repo = path.join(root, 'repo');
  fs.writeFileSync(path.join(root, 'secret.bin'), Buffer.alloc(SECRET_BYTES));
  for (const [name, c] of [...Object.entries(OUTSIDE), ...Object.entries(INSIDE)]) await writeCase(name, c);
});

const expectNoSecret = (text: string): void => {
  for (const shown of SECRET_SHOWN) expect(text).not.toContain(shown);
};

describe('the reader refuses a location outside the model directory, as ONNX Runtime does', () => {
  it.each(Object.entries(OUTSIDE))('%s: a ModelReadError with the tensor and the location, from both readers', async (name, c) => {
    const expected = { messageId: c.messageId, data: { tensor: 'B', location: c.location() } };
    const async = await readSignature(modelOf(name)).then(
      () => null,
      (e: unknown) => e,
    );
    expect(async).toBeInstanceOf(ModelReadError);
    expect(async).toMatchObject(expected);
    expect(() => readSignatureSync(modelOf(name))).toThrow(ModelReadError);
    try {
      readSignatureSync(modelOf(name));
    } catch (e) {
      expect(e).toMatchObject(expected);
    }
  });

  it.each(Object.entries(INSIDE))('%s: read, 32 bytes of external data', async (name) => {
    expect((await readSignature(modelOf(name))).initializers.externalBytes).toBe(32);
    expect(readSignatureSync(modelOf(name)).initializers.externalBytes).toBe(32);
  });

  // The real loader. onnxruntime 1.30 answers "External data path validation failed for initializer: B.
  // Error: ... ValidateExternalDataPathFromDir Absolute path not allowed for external data location"
  // for the absolute path, and "External data path escapes model directory" for the others
  // (onnxruntime/core/framework/tensorprotoutils.cc, weakly_canonical paths compared).
  it.each(Object.entries(OUTSIDE))('%s: ONNX Runtime refuses the same model', async (name) => {
    await expect(ort.InferenceSession.create(modelOf(name))).rejects.toThrow(
      /External data path validation failed for initializer: B\. Error: .*(Absolute path not allowed|escapes model directory)/,
    );
  });

  it.each(Object.entries(INSIDE))('%s: ONNX Runtime loads it', async (name) => {
    const session = await ort.InferenceSession.create(modelOf(name));
    await session.release();
  });
});

describe("the commands: a finding or error naming the location, and the outside file's size nowhere", () => {
  it('lint: model-unreadable with the message id and its data for each, the estimate without the file', async () => {
    const r = await cli(['lint', repo, '-f', 'json'], { cwd: root });
    expect(r.code, r.stderr).toBe(1);
    const files = JSON.parse(r.stdout) as { filePath: string; messages: { ruleId: string; messageId: string; message: string }[] }[];
    for (const [name, c] of Object.entries(OUTSIDE)) {
      const found = files.find((f) => f.filePath === modelOf(name))?.messages.find((m) => m.ruleId === 'model-unreadable');
      expect(found?.messageId, name).toBe(c.messageId);
      expect(found?.message).toContain(
        `tensor "B" keeps its data at "${c.location()}"`.replace(
          `at "${path.join(root, 'secret.bin')}"`,
          `at the absolute path "${path.join(root, 'secret.bin')}"`,
        ),
      );
    }
    for (const name of Object.keys(INSIDE))
      expect(files.find((f) => f.filePath === modelOf(name))?.messages.filter((m) => m.ruleId === 'model-unreadable') ?? []).toEqual([]);
    expectNoSecret(r.stdout + r.stderr);
  });

  it.each(Object.entries(OUTSIDE))('inspect %s (text and JSON): exit 2 with the message, no size', async (name, c) => {
    for (const args of [[], ['--format', 'json']]) {
      const r = await cli(['inspect', modelOf(name), ...args], { cwd: root });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`tensor "B" keeps its data at`);
      expect(r.stderr).toContain(c.location());
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expectNoSecret(r.stdout + r.stderr);
    }
  });

  it('lock: refuses the repository, naming each model, and writes no lock with the size', async () => {
    const out = path.join(root, 'tritonc.lock.json');
    const r = await cli(['lock', repo, '--output', out], { cwd: root });
    expect(r.code, r.stderr).toBe(2);
    for (const name of Object.keys(OUTSIDE)) expect(r.stderr).toContain(`${dirName(name)}/1/model.onnx`);
    expectNoSecret(r.stdout + r.stderr + (fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : ''));
  });

  it('generate: exit 2 with the message, no config written', async () => {
    const dir = path.join(repo, dirName('absolute'));
    const r = await cli(['generate', dir], { cwd: root });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`keeps its data at the absolute path "${path.join(root, 'secret.bin')}"`);
    expectNoSecret(r.stdout + r.stderr);
  });
});

describe('a repository in object storage', () => {
  // The same rules on a listing's keys: the location is refused before the listing is looked at.
  it('lint s3://: model-unreadable for a location that leads out, none for the file beside the model', async () => {
    const objects: Record<string, Uint8Array> = {};
    for (const name of ['absolute', 'parent', 'a file beside the model']) {
      const d = dirName(name);
      objects[`repo/${d}/config.pbtxt`] = fs.readFileSync(path.join(repo, d, 'config.pbtxt'));
      objects[`repo/${d}/1/model.onnx`] = fs.readFileSync(modelOf(name));
    }
    objects[`repo/${dirName('a file beside the model')}/1/bias.bin`] = Buffer.alloc(32);
    const store = await startHostileS3(objects, 'honest');
    try {
      const url = `s3://${store.url}/models/repo`;
      const r = await cli(['lint', url, '-f', 'json'], { cwd: root, env: { AWS_ACCESS_KEY_ID: 'k', AWS_SECRET_ACCESS_KEY: 's' } });
      expect(r.code, r.stderr).toBe(1);
      const files = JSON.parse(r.stdout) as { filePath: string; messages: { ruleId: string; messageId: string }[] }[];
      const unreadable = (name: string) =>
        files
          .find((f) => f.filePath === `${url}/${dirName(name)}/1/model.onnx`)
          ?.messages.filter((m) => m.ruleId === 'model-unreadable')
          .map((m) => m.messageId);
      expect(unreadable('absolute')).toEqual(['onnxExternalAbsolute']);
      expect(unreadable('parent')).toEqual(['onnxExternalParent']);
      expect(unreadable('a file beside the model') ?? []).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
