// The effective config Triton would load for one model directory (core ModelRepositoryManager::InitializeModelInfo,
// then TritonModel::Create and TritonModel::UpdateModelConfig): read the
// config file (or start empty), core's backend-field autofill, core's normalization, the instance
// groups for the given host, the ONNX Runtime backend's auto-complete from the model of the version
// Triton loads, and core's re-normalization. Everything comes back as data: the config, the steps
// that changed it and why, the problem that makes Triton refuse the model, or why tritonc could not
// read its input. Nothing here throws for bad input.
import { DEFAULT_TARGET, type TritonTarget } from './releases/target.js';
import { fieldReleases, fieldsMissingIn } from './schema-releases.js';
import type { TritonRelease } from './releases/catalog.js';
import { join } from 'node:path';
import type { Diagnostic } from '../diagnostics.js';
import type { AutofillResult } from './autofill.js';
import type { OnnxAutoCompleteOptions } from './backends/onnxruntime/autocomplete.js';
import { backendAutoComplete } from './backend-autocomplete.js';
import {
  BACKEND_RECORDS,
  directoryModelFile,
  ENSEMBLE_PLATFORM,
  modelFileName,
  ONNX_MODEL_FILE,
  type BackendRecord,
  type CompletionOptions,
} from './backend-records.js';
import { step, type ResolveProblem, type ResolveStep } from './changes.js';
import { hasErrors, type ConfigDocument } from '../config/document.js';
import type { ModelConfig } from '../config/model-config.js';
import { instanceGroupProblem, normalizeInstanceGroup, normalizeModelConfig } from './normalize.js';
import { hostGpuCount } from './gpu-count.js';
import { loadSchema } from '../config/schema.js';
import type { ModelReadError } from '../model-file/errors.js';
import type { ModelSignature } from '../model-file/signature.js';
import type { ModelDir } from '../repo/model-dir.js';
import { selectVersions } from './version-policy.js';
import { inSchemaOrder } from './field-order.js';
import { locateModelFile } from './model-file-location.js';
import type { PathKind } from '../util/path-kind.js';
import { UnreadablePathError } from '../util/unreadable-path.js';
import { append } from '../util/arrays.js';

/** What the effective config is computed from: one model directory's files, as the workspace reads them. */
export interface ModelSource {
  /** Absolute path of the model directory. */
  readonly dir: string;
  /** The model's name: its directory's name. */
  readonly name: string;
  kind(path: string): PathKind | undefined;
  layout(): ModelDir;
  /** core's AutoCompleteBackendFields of `release` (default: the served target's) on `config` in this directory (unknownBackend where the files that decide it are elsewhere). */
  autofill(config: ModelConfig, release?: TritonRelease): AutofillResult;
  /** A config file read and parsed, or why it cannot be read. */
  readConfig(file: string): ConfigDocument | { file: string; message: string };
  /** The signature of the model file at `path`, read as `format` (its backend record's). */
  signatureAt(path: string, format: string): { signature?: ModelSignature; error?: ModelReadError };
  /** The text of a file (a Python model's model.py), or undefined when it cannot be read. */
  textAt?(path: string): string | undefined;
  /** The model's version directories and files are provisioned elsewhere (configs-only): unknown, not missing. */
  filesElsewhere?(): boolean;
  /**
   * Whether the model of this name beside it (an ensemble's step) is served decoupled, as its own
   * effective config says; undefined when that is not known here.
   */
  stepDecoupled?(modelName: string): boolean | undefined;
}

/** The backends whose auto-complete tritonc works out ("ONNX Runtime and vLLM"). */
const REPRODUCED = ((titles: string[]) => (titles.length > 1 ? `${titles.slice(0, -1).join(', ')} and ${titles.at(-1)}` : (titles[0] ?? 'no')))(
  BACKEND_RECORDS.filter((b) => b.autoComplete && b.autoComplete.from !== 'script').map((b) => b.title ?? b.name),
);

export interface ResolveOptions extends OnnxAutoCompleteOptions, Pick<CompletionOptions, 'runScript'> {
  /**
   * Supported GPUs on the host Triton runs on (ids 0..gpus-1). Default (gpu-count.ts hostGpuCount): 1,
   * or as many as the highest GPU id the config lists needs; 1 is the host Triton's own
   * qa tests ran on (their expected configs show KIND_GPU); with 0, KIND_AUTO groups become KIND_CPU
   * and a KIND_GPU group is refused.
   */
  gpus?: number;
  /** Triton's --model-config-name: read configs/<name>.pbtxt when it exists, else config.pbtxt. */
  configName?: string;
  /**
   * false for a server started with --disable-auto-complete-config: a missing config.pbtxt is
   * refused and no backend completes the config. Default true, Triton's default.
   */
  autoCompleteConfig?: boolean;
  /** Per backend name, where the server's flags give backends different default-max-batch-size values. */
  defaultMaxBatchSizes?: Readonly<Record<string, number>>;
  /** The Triton release the server runs (default: the newest tritonc knows), whose autofill and checks apply. */
  target?: TritonTarget;
}

/** Why tritonc could not read its input (exit 2 in the CLI); not Triton's verdict on the model. */
export type ResolveFailure =
  | { kind: 'io'; file: string; message: string }
  | { kind: 'syntax'; file: string; diagnostics: Diagnostic[] }
  /** `message` is ModelReadError's (file, byte offset, reason); `reason` is the reason alone. */
  | { kind: 'onnx'; file: string; offset: number | null; message: string; reason: string };

export interface ResolveResult {
  /** ok: `config` is what Triton serves; refused: Triton would not load the model (see `problems`); unreadable: see `failure`. */
  status: 'ok' | 'refused' | 'unreadable';
  modelDir: string;
  /** The model's name: its directory's name. */
  modelName: string;
  /** The config file read, or undefined when there is none (Triton then starts from an empty config). */
  configFile?: string;
  /** The version whose model auto-complete reads (the newest one the version policy selects). */
  version?: number;
  /** The ONNX file read for auto-complete, when one was. */
  modelFile?: string;
  /** The effective config when ok; when refused, the config as far as Triton got. */
  config?: ModelConfig;
  steps: ResolveStep[];
  /** Why Triton refuses the model: its first error, as Triton stops at the first. */
  problems: ResolveProblem[];
  /** Parser diagnostics of the config file (warnings when the status is not 'unreadable'). */
  diagnostics: Diagnostic[];
  failure?: ResolveFailure;
  /**
   * What the backend fills in at load that tritonc could not work out here (a model file it does
   * not read, or one provisioned elsewhere): each says which fields, and why. The config shown is
   * the one before that.
   */
  pending: string[];
}

/** The fields a backend's auto-complete may fill in that the config leaves out (max_batch_size, tensors, their types and dims). */
function leftForBackend(config: ModelConfig): string[] {
  const left: string[] = [];
  if (config.max_batch_size === undefined) left.push('max_batch_size');
  for (const side of ['input', 'output'] as const) {
    const tensors = config[side] ?? [];
    if (!tensors.length) left.push(`${side} (none listed)`);
    for (const t of tensors) {
      const missing = [
        ...(t.data_type === undefined || t.data_type === 'TYPE_INVALID' || t.data_type === 0 ? ['data_type'] : []),
        ...(!t.dims?.length ? ['dims'] : []),
      ];
      if (missing.length) left.push(`${side} '${t.name ?? ''}' ${missing.join(' and ')}`);
    }
  }
  return left;
}

export function effectiveConfig(model: ModelSource, options: ResolveOptions = {}): ResolveResult {
  try {
    return resolveListable(model, options);
  } catch (e) {
    // A directory of the model that cannot be listed: the model, not its config, is what cannot be read.
    if (!(e instanceof UnreadablePathError)) throw e;
    const base = { modelDir: model.dir, modelName: model.name, steps: [], problems: [], diagnostics: [], pending: [] };
    return { ...base, status: 'unreadable', failure: { kind: 'io', file: e.path, message: `cannot read: ${e.reason}` } };
  }
}

function resolveListable(model: ModelSource, options: ResolveOptions): ResolveResult {
  const { dir: modelDir, name: modelName } = model;
  const autoComplete = options.autoCompleteConfig ?? true;
  const steps: ResolveStep[] = [];
  const elsewhere = model.filesElsewhere?.() === true;
  const pending: string[] = [];
  const base = { modelDir, modelName, steps, problems: [] as ResolveProblem[], diagnostics: [] as Diagnostic[], pending };
  const unreadable = (failure: ResolveFailure, extra: Partial<ResolveResult> = {}): ResolveResult => ({ ...base, ...extra, status: 'unreadable', failure });

  const kind = model.kind(modelDir);
  if (kind !== 'dir') {
    return unreadable({
      kind: 'io',
      file: modelDir,
      message: kind ? 'not a directory: give a model directory (the one holding config.pbtxt and the version directories)' : 'no such directory',
    });
  }

  // 1. The config file (core GetModelConfigFullPath, and InitializeModelInfo when there is none).
  const configFile = chooseConfigFile(model, options.configName, steps);
  let start: ModelConfig = {};
  if (configFile) {
    const doc = model.readConfig(configFile);
    if (!('value' in doc)) return unreadable({ kind: 'io', file: configFile, message: doc.message });
    base.diagnostics = doc.diagnostics;
    if (hasErrors(doc.diagnostics))
      return unreadable({ kind: 'syntax', file: configFile, diagnostics: doc.diagnostics.filter((d) => d.severity === 'error') }, { configFile });
    start = doc.value;
    // A field the server's release does not have: its text parser refuses the file (core ReadTextProto).
    const missing = fieldsMissingIn(start, (options.target ?? DEFAULT_TARGET).release)[0];
    if (missing) {
      const since = fieldReleases(missing.field)?.since ?? '';
      return {
        ...base,
        configFile,
        status: 'refused',
        problems: [
          {
            stage: 'repository',
            path: missing.path,
            message: `failed to read text proto from ${configFile} (Message type "${missing.field.parent.fullName}" has no field named "${missing.field.name}")`,
            fix: `remove ${missing.field.name}: Triton has it from ${since} on (or judge against a release from ${since} on: --triton-version ${since})`,
          },
        ],
      };
    }
  } else if (autoComplete) {
    steps.push(step('repository', 'note', [], `no config.pbtxt: Triton starts from an empty config and fills it in (auto-complete is on by default)`));
  } else {
    // InitializeModelInfo reads the file unless autofill is on (ReadTextProto -> local.h ReadTextFile).
    const file = join(modelDir, 'config.pbtxt');
    return { ...base, status: 'refused', problems: [missingConfigProblem(file)] };
  }

  let config = start;
  const refused = (problem: ResolveProblem, extra: Partial<ResolveResult> = {}): ResolveResult => ({
    ...base,
    ...extra,
    configFile,
    status: 'refused',
    config: inSchemaOrder(config, loadSchema().modelConfig),
    problems: [problem],
  });

  // 2. Core: backend fields, then the first normalization.
  // The directory is listed first, as core's auto-fill lists it: one that cannot be listed is
  // unreadable before anything in it is judged.
  const dir = model.layout();
  const filled = model.autofill(config, (options.target ?? DEFAULT_TARGET).release);
  append(steps, filled.steps);
  config = filled.config;
  // No backend from files that are elsewhere: core chooses it from them at deploy.
  const unknownBackend = filled.unknownBackend === true;
  if (unknownBackend)
    pending.push(
      `the backend: the config names neither backend nor platform, so Triton chooses one from the model file at deploy, which is provisioned elsewhere; with it, whatever that backend's auto-complete fills in (${leftForBackend(config).join(', ') || 'nothing the config leaves out'})`,
    );
  else if (filled.problem) return refused(filled.problem);
  const normalized = normalizeModelConfig(config);
  append(steps, normalized.steps);
  config = normalized.config;

  // 3. The validation rows that follow from autofill, and the name check (core ValidateModelConfig,
  // InitializeModelInfo).
  const backend = config.backend ?? '';
  const platform = config.platform ?? '';
  if (backend === '' && platform !== ENSEMBLE_PLATFORM && !unknownBackend) {
    return refused({
      stage: 'validate',
      path: ['platform'],
      message: `unexpected platform type '${platform}' for ${config.name}`,
      fix: config.default_model_filename
        ? `default_model_filename '${config.default_model_filename}' does not tell Triton the backend: add backend: "onnxruntime" (or the platform, e.g. platform: "onnxruntime_onnx")`
        : 'set backend (e.g. backend: "onnxruntime") or platform in config.pbtxt',
    });
  }
  if (config.name !== modelName) {
    return refused({
      stage: 'validate',
      path: ['name'],
      message: `unexpected directory name '${modelName}' for model '${config.name}', directory name must equal model name`,
      fix: `rename the directory to '${config.name}', or set name: "${modelName}" (or remove name: Triton fills it in)`,
    });
  }

  // 4. The version Triton loads (core model_lifecycle.cc VersionsToLoad); auto-complete reads that version's model.
  const selected = selectVersions(config.version_policy, dir.versionDirs);
  const chosen = selected[selected.length - 1];
  if (!chosen && elsewhere) {
    pending.push(`the version: the version directories are provisioned elsewhere, and Triton loads the newest its version_policy selects there`);
  } else if (!chosen) {
    const ignored = dir.versionDirs.filter((v) => v.ignored).map((v) => v.dirName);
    return refused({
      stage: 'repository',
      path: ['version_policy'],
      message: `at least one version must be available under the version policy of model '${modelName}'`,
      fix: dir.versionDirs.some((v) => v.version !== undefined)
        ? 'the version policy selects none of the version directories: list existing versions, or use latest { num_versions: 1 }'
        : `add a numbered version directory holding the model, e.g. ${join(modelDir, '1', modelFileName(config) ?? ONNX_MODEL_FILE)}${ignored.length ? ` (Triton ignores ${ignored.map((d) => `'${d}'`).join(', ')})` : ''}`,
    });
  }
  const version = chosen?.version;
  if (chosen)
    steps.push(
      step(
        'repository',
        'note',
        [],
        selected.length > 1
          ? `Triton loads versions ${selected.map((v) => v.version).join(', ')}; the config shown is version ${version}'s`
          : `Triton loads version ${version}`,
      ),
    );

  // 5. Instance groups for this host (core NormalizeInstanceGroup, ValidateInstanceGroup), before the
  // backend sees the config.
  const gpuCount = hostGpuCount(config, options.gpus);
  const groups = normalizeInstanceGroup(config, gpuCount);
  append(steps, groups.steps);
  config = groups.config;
  const groupProblem = instanceGroupProblem(config, gpuCount);
  if (groupProblem) return refused(groupProblem, { version });

  // 6. The backend's auto-complete, then core's re-normalization (onnxruntime_backend
  // ModelState::AutoCompleteConfig, then core TritonModel::UpdateModelConfig).
  let modelFile: string | undefined;
  if (unknownBackend) {
    // Said in pending: which backend completes it is not known here.
  } else if (!autoComplete) {
    if (platform !== ENSEMBLE_PLATFORM)
      steps.push(
        step('autocomplete', 'note', [], `--disable-auto-complete-config: the ${backend} backend does not complete the config; it must be complete as written`),
      );
  } else if (platform !== ENSEMBLE_PLATFORM) {
    const outcome = backendAutoComplete(
      config,
      {
        modelFile: () => {
          const located = chosen ? locateModelFile(dir, config, (p) => model.kind(p)) : undefined;
          modelFile = located?.path ?? located?.expected;
          return located?.path ? { path: located.path, ...model.signatureAt(located.path, located.format) } : { ...(modelFile ? { expected: modelFile } : {}) };
        },
        scriptTexts: () => [],
        script: (file) => {
          if (!chosen) return undefined;
          const path = join(chosen.path, file);
          const text = model.textAt?.(path);
          return text === undefined ? undefined : { path, text };
        },
      },
      options,
    );
    const title = outcome.record?.title ?? backend;
    switch (outcome.kind) {
      case 'skipped': {
        const how = outcome.record.autoComplete;
        if (how?.from === 'model') steps.push(step('autocomplete', 'note', [], how.skippedNote(modelName, config)));
        break;
      }
      case 'unreadable-model': {
        const e = outcome.error;
        return unreadable({ kind: 'onnx', file: e.file, offset: e.offset, message: e.message, reason: e.reason }, { configFile, version, modelFile });
      }
      case 'completed': {
        const script = outcome.record.autoComplete?.from === 'script';
        if (outcome.modelFile)
          steps.push(
            step(
              'autocomplete',
              'note',
              [],
              script
                ? `the ${title} backend runs auto_complete_config in ${outcome.modelFile}`
                : `read the model's inputs and outputs from ${outcome.modelFile}`,
            ),
          );
        if (script) modelFile = outcome.modelFile;
        const completed = outcome.completion;
        append(steps, completed.steps);
        config = completed.config;
        if (completed.problems[0]) return refused(completed.problems[0], { version, ...(modelFile ? { modelFile } : {}) });
        if (completed.unknown) pending.push(completed.unknown);
        const renormalized = normalizeModelConfig(config, 'after auto-complete');
        append(steps, renormalized.steps);
        config = renormalized.config;
        break;
      }
      case 'no-model-file':
        if (elsewhere) {
          pending.push(
            `what the ${backend} backend reads from ${modelFile ?? `<version>/${modelFileName(config)}`} at load, provisioned elsewhere: ${leftForBackend(config).join(', ') || 'nothing: the config lists inputs and outputs'}`,
          );
          break;
        }
        return refused(
          {
            stage: 'autocomplete',
            message: noModelFileWords(outcome.record, modelFile!, modelName),
            fix: `the ${title} backend reads <model>/<version>/<default_model_filename>${directoryModelFile(config) ? ` (a directory there means <dir>/${directoryModelFile(config)})` : ''} to complete the config: put the model at ${modelFile}${chosen && chosen.dirName !== String(version) ? ` (the directory '${chosen.dirName}' is read as version ${version}, and Triton opens '${version}/')` : ''}`,
          },
          { version, modelFile },
        );
      case 'none':
        steps.push(
          step(
            'autocomplete',
            'note',
            [],
            `the ${backend} backend does not complete the config: it runs as written${outcome.log ? ` (the server logs "${outcome.log}")` : ''}`,
          ),
        );
        if (outcome.refusal) {
          return refused(
            {
              stage: 'autocomplete',
              message: outcome.refusal,
              fix: `the ${title} backend fills in no inputs or outputs: list them in config.pbtxt (tritonc lint names the ones the model needs)`,
            },
            { version, ...(outcome.modelFile ? { modelFile: outcome.modelFile } : {}) },
          );
        }
        break;
      case 'script':
      case 'unread': {
        steps.push(
          step(
            'autocomplete',
            'note',
            [],
            `the ${backend} backend may complete the config further when it loads the model; tritonc reproduces the ${REPRODUCED} backends' auto-complete only`,
          ),
        );
        const left = leftForBackend(config);
        if (left.length)
          pending.push(`what the ${backend} backend's auto-complete fills in from its model at load, which tritonc does not read: ${left.join(', ')}`);
      }
    }
  }

  // 7. An ensemble is decoupled iff one of its steps is: core overwrites the setting when it validates
  // the ensemble (core src/ensemble_scheduler/ensemble_utils.cc ValidateEnsembleConfig, which sets
  // model_transaction_policy.decoupled from the steps it reaches).
  if (platform === ENSEMBLE_PLATFORM) {
    const names = [...new Set((config.ensemble_scheduling?.step ?? []).map((s) => s.model_name ?? ''))];
    const states = names.map((n) => model.stepDecoupled?.(n));
    const decoupled = states.some((s) => s === true) ? true : states.every((s) => s === false) ? false : undefined;
    if (decoupled === undefined) {
      pending.push(
        `model_transaction_policy.decoupled: Triton sets it from the ensemble's steps, and whether ${names
          .filter((_, i) => states[i] === undefined)
          .map((n) => `'${n}'`)
          .join(', ')} is decoupled is not known here`,
      );
    } else {
      if (config.model_transaction_policy?.decoupled !== decoupled)
        steps.push(
          step(
            'validate',
            'set',
            ['model_transaction_policy', 'decoupled'],
            decoupled
              ? 'a step of the ensemble is decoupled, so Triton serves the ensemble as decoupled'
              : 'no step of the ensemble is decoupled, so Triton serves it as not decoupled',
            decoupled,
          ),
        );
      config = { ...config, model_transaction_policy: { ...config.model_transaction_policy, decoupled } };
    }
  }

  return { ...base, status: 'ok', configFile, version, ...(modelFile ? { modelFile } : {}), config: inSchemaOrder(config, loadSchema().modelConfig) };
}

function chooseConfigFile(model: ModelSource, configName: string | undefined, steps: ResolveStep[]): string | undefined {
  const main = join(model.dir, 'config.pbtxt');
  if (configName) {
    const custom = join(model.dir, 'configs', `${configName}.pbtxt`);
    if (model.kind(custom) !== undefined) {
      steps.push(step('repository', 'note', [], `--config-name ${configName}: reading ${custom}`));
      return custom;
    }
    steps.push(step('repository', 'note', [], `--config-name ${configName}: ${custom} does not exist, so Triton falls back to config.pbtxt`));
  }
  return model.kind(main) !== undefined ? main : undefined;
}

/** Triton's refusal of a model without config.pbtxt on a server that does not auto-complete. */
export function missingConfigProblem(file: string): ResolveProblem {
  return {
    stage: 'repository',
    message: `failed to open text file for read ${file}: No such file or directory`,
    fix: 'the server runs with --disable-auto-complete-config, so every model needs a config.pbtxt: write one (tritonc generate --write for an ONNX model), or serve with auto-complete on',
  };
}

/** The backend's words for a model file that is not there, as its record says them. */
function noModelFileWords(record: BackendRecord | undefined, path: string, modelName: string): string {
  const auto = record?.autoComplete;
  return auto?.from === 'model' && auto.noModelFile ? auto.noModelFile(path, modelName) : `unable to find '${path}' for model instance '${modelName}'`;
}
