// What `tritonc client PATH` makes: for a model directory one module, for a repository one module
// per model and an index.ts, each from the model's effective config as the workspace resolves it
// (autofill and auto-complete included; an ensemble is one model, its own inputs and outputs).
import { shellPath, shellQuote } from '../util/shell.js';
import { DEFAULT_TARGET } from '../triton/releases/target.js';
import { basename, join, resolve } from 'node:path';
import type { ResolveOptions } from '../triton/effective-config.js';
import { looksLikeModelDir } from '../repo/model-dir.js';
import { sha256Hex } from '../util/sha256.js';
import { Workspace } from '../workspace/workspace.js';
import { bodyChecksum, clientHeader, readClientHeader } from './header.js';
import { pythonClient, pythonIndex, pythonModuleName } from './python.js';
import { clientSpec, tsString, typescriptClient, type ClientProtocol } from './typescript.js';

export interface ClientFile {
  /** The file's name in the output directory (a single model's may be written elsewhere with --out FILE). */
  name: string;
  text: string;
  /** The model it is the client of (none for index.ts). */
  model?: string;
}

export interface ClientRun {
  kind: 'model' | 'repository';
  files: ClientFile[];
  /** Models no client could be made for, and why. */
  problems: { model: string; message: string }[];
  /** What the user should know (a decoupled model, fields only the backend fills in). */
  warnings: string[];
}

/** A file name for a model's module: its name where that is plain, else a plain stand-in (never a path, never hidden). */
export function moduleFileName(model: string, taken: Set<string>): string {
  let stem = model.replace(/[^A-Za-z0-9_.-]/g, '_').replace(/^[.-]+/, '_');
  if (!stem || stem.toLowerCase() === 'index') stem = `${stem}_model`;
  let name = `${stem}.ts`;
  for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${stem}_${n}.ts`;
  taken.add(name.toLowerCase());
  return name;
}

const RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in ' +
    'instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package ' +
    'private protected public await arguments eval undefined NaN Infinity MODELS'
  ).split(' '),
);

/** An identifier for a model's namespace in index.ts. */
export function moduleIdentifier(model: string, taken: Set<string>): string {
  let id = model.replace(/[^A-Za-z0-9_$]/g, '_');
  if (!id || /^\d/.test(id)) id = `_${id}`;
  if (RESERVED.has(id)) id = `${id}_`;
  let out = id;
  for (let n = 2; taken.has(out); n++) out = `${id}_${n}`;
  taken.add(out);
  return out;
}

/** The languages a client is made in. */
export type ClientLang = 'typescript' | 'python';

/** Whether a language's modules are Python's (the generators per language). */
const IS_PYTHON: Readonly<Record<ClientLang, boolean>> = { typescript: false, python: true };

export function clientRun(
  path: string,
  options: { resolve?: ResolveOptions; workspace?: Workspace; lang?: ClientLang; protocol?: ClientProtocol } = {},
): ClientRun | { error: string } {
  const python = IS_PYTHON[options.lang ?? 'typescript'];
  const protocol = options.protocol ?? 'http';
  const ws = options.workspace ?? new Workspace();
  const dir = resolve(path);
  const kind = ws.tree.kind(dir);
  if (kind !== 'dir') return { error: kind ? `${path}: not a directory (give a model directory or a model repository)` : `${path}: no such directory` };
  const single = looksLikeModelDir(dir, ws.tree);
  const dirs = single ? [dir] : ws.repository(dir).modelDirs();
  if (!dirs.length) return { error: `${path}: neither a model directory (config.pbtxt or version directories) nor a repository of them` };
  const run: ClientRun = { kind: single ? 'model' : 'repository', files: [], problems: [], warnings: [] };
  const takenFiles = new Set<string>([python ? '__init__.py' : 'index.ts']);
  for (const modelDir of dirs) {
    const name = basename(modelDir);
    const result = ws.model(modelDir, name).effective(options.resolve ?? {});
    if (result.status === 'unreadable') {
      const f = result.failure!;
      run.problems.push({
        model: name,
        message:
          f.kind === 'syntax'
            ? `${f.file} does not parse (tritonc lint shows where)`
            : f.kind === 'onnx'
              ? `cannot read ${f.file}: ${f.reason}`
              : `${f.file}: ${f.message}`,
      });
      continue;
    }
    if (result.status === 'refused') {
      // The hint's command judges the same release (a later one may load the model).
      const target = options.resolve?.target;
      run.problems.push({
        model: name,
        message: `Triton ${(target ?? DEFAULT_TARGET).release.container} would not load it: ${result.problems[0]!.message} (tritonc resolve ${shellPath(modelDir)}${target ? ` --triton-version ${shellQuote(target.named)}` : ''} says more)`,
      });
      continue;
    }
    const config = result.config!;
    for (const p of result.pending) run.warnings.push(`${name}: not known here: ${p}`);
    const made = clientSpec(config, name);
    if (!made.spec) {
      for (const p of made.problems) run.problems.push({ model: name, message: p.message });
      continue;
    }
    if (made.spec.decoupled && protocol === 'http') {
      run.warnings.push(
        `${name}: the model is decoupled: Triton's HTTP endpoint cannot stream its responses (it answers 501), so the client's connect() refuses it (Unsupported); --protocol grpc streams them`,
      );
    }
    const source = result.configFile ? `${name}/config.pbtxt` : `${name}/`;
    run.files.push(
      python
        ? { name: pythonModuleName(name, takenFiles), text: pythonClient(made.spec, source, config, protocol), model: name }
        : { name: moduleFileName(name, takenFiles), text: typescriptClient(made.spec, source, config, protocol), model: name },
    );
  }
  if (!single && run.files.length) {
    run.files.push(
      python
        ? {
            name: '__init__.py',
            text: pythonIndex(
              run.files.map((f) => ({ file: f.name, model: f.model!, header: f.text })),
              basename(dir),
              protocol,
            ),
          }
        : { name: 'index.ts', text: indexModule(run.files, basename(dir), protocol) },
    );
  }
  return run;
}

/** index.ts: each model's module as a namespace, and MODELS by model name. */
function indexModule(files: readonly ClientFile[], repo: string, protocol: ClientProtocol): string {
  const taken = new Set<string>();
  const modules = files.filter((f) => f.model !== undefined).map((f) => ({ file: f, id: moduleIdentifier(f.model!, taken) }));
  const body = [
    "// The clients of the repository's models, one module each (see each module for its API; tritonc docs/client.md).",
    '// Each module is self-contained: its error classes are its own (compare err.name across modules).',
    ...modules.map((m) => `import * as ${m.id} from ${tsString(`./${m.file.name.replace(/\.ts$/, '.js')}`)};`),
    '',
    modules.length ? `export { ${modules.map((m) => m.id).join(', ')} };` : '',
    '',
    "/** Each model's client module, by the model's name. */",
    'export const MODELS = {',
    // A computed key: `"__proto__": x` in an object literal sets the prototype, not a key.
    ...modules.map((m) => `  [${tsString(m.file.model!)}]: ${m.id},`),
    '} as const;',
    '',
  ].join('\n');
  // The index's "config" checksum covers the models' own: a model added, removed or changed changes it.
  const sum = sha256Hex(modules.map((m) => readClientHeader(m.file.text)?.config ?? '').join('\n')).slice(0, 16);
  return clientHeader(`${repo}/`, sum, bodyChecksum(body), `--lang typescript --protocol ${protocol}`) + body;
}

/** Where each file goes: --out FILE for one model, --out DIR (or the current directory) otherwise. */
export function placeFiles(run: ClientRun, out: string, outIsDir: boolean): { path: string; file: ClientFile }[] {
  if (run.kind === 'model' && !outIsDir) return run.files.map((file) => ({ path: out, file }));
  return run.files.map((file) => ({ path: join(out, file.name), file }));
}
