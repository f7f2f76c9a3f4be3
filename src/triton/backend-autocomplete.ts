// What a backend's auto-complete does to a config when Triton loads the model, by its record
// (./backends): the one place that dispatches on it. The effective config (resolve, lint's
// model facts) and the completed config other models see (an ensemble's steps) both ask here.
import type { ModelConfig } from '../config/model-config.js';
import type { ModelReadError } from '../model-file/errors.js';
import type { ModelSignature } from '../model-file/signature.js';
import { backendRecord, modelFileName, type BackendRecord, type Completion, type CompletionOptions } from './backend-records.js';

/** The model's files as the backend would read them, asked only when its record needs them. */
export interface AutoCompleteInputs {
  /** The model file the backend reads, for the version Triton loads: its signature, or why there is none. */
  modelFile(): { path?: string; expected?: string; signature?: ModelSignature; error?: ModelReadError };
  /** The texts of the model's script named `file` (a Python model's model.py) where the backend looks for it. */
  scriptTexts(file: string): string[];
  /** The script named `file` the backend runs for the version Triton loads (<version>/<file>), where known. */
  script?(file: string): { path: string; text: string } | undefined;
}

export type AutoCompleteOutcome =
  /** The backend completed the config (its problems, if any, fail the load). */
  | { kind: 'completed'; record: BackendRecord; completion: Completion; modelFile?: string }
  /** The backend leaves this config alone (ONNX Runtime: inputs and outputs already written). */
  | { kind: 'skipped'; record: BackendRecord }
  /** The backend reads a model file that is not there. */
  | { kind: 'no-model-file'; record: BackendRecord; expected?: string }
  /** The model file is there but cannot be read. */
  | { kind: 'unreadable-model'; record: BackendRecord; modelFile: string; error: ModelReadError }
  /** The backend fills nothing in (`log`: what it logs so); `refusal`: and refuses the config at load for it. */
  | { kind: 'none'; record: BackendRecord; log?: string; refusal?: string; modelFile?: string }
  /** The model's script completes it, or not (`defines`); tritonc does not run it. */
  | { kind: 'script'; record: BackendRecord; defines: boolean }
  /** The backend may complete it from a model tritonc does not read (or tritonc has no record of it). */
  | { kind: 'unread'; record: BackendRecord | undefined };

/** What the auto-complete of `config`'s backend does (config after core's auto-fill). */
export function backendAutoComplete(config: ModelConfig, inputs: AutoCompleteInputs, options: CompletionOptions = {}): AutoCompleteOutcome {
  const record = backendRecord(config.backend);
  const how = record?.autoComplete;
  if (!record || !how) return { kind: 'unread', record };
  switch (how.from) {
    case 'none': {
      const model = config.name ?? '';
      const log = how.skippedLog?.(model);
      const unlisted = !config.input?.length || !config.output?.length;
      if (!how.refusesUnlisted || !unlisted) return { kind: 'none', record, ...(log ? { log } : {}) };
      const file = inputs.modelFile();
      const refusal = how.refusesUnlisted(model, config, file.signature);
      return { kind: 'none', record, ...(log ? { log } : {}), ...(refusal ? { refusal } : {}), ...(file.path ? { modelFile: file.path } : {}) };
    }
    case 'config':
      return { kind: 'completed', record, completion: how.complete(config) };
    case 'script': {
      const file = modelFileName(config) ?? '';
      const script = inputs.script?.(file);
      if (!script) return { kind: 'script', record, defines: inputs.scriptTexts(file).some((text) => how.defines(text)) };
      const facts = options.runScript ? options.runScript(script.path, config) : how.read(script.text);
      return { kind: 'completed', record, completion: how.complete(config, facts, options.runScript ? 'run' : 'read'), modelFile: script.path };
    }
    case 'model': {
      if (how.skipped(config)) return { kind: 'skipped', record };
      const file = inputs.modelFile();
      if (file.error) return { kind: 'unreadable-model', record, modelFile: file.path ?? file.error.file, error: file.error };
      if (!file.signature || !file.path) return { kind: 'no-model-file', record, ...(file.expected ? { expected: file.expected } : {}) };
      const own = options.defaultMaxBatchSizes?.[record.name];
      return {
        kind: 'completed',
        record,
        completion: how.complete(config, file.signature, own === undefined ? options : { ...options, defaultMaxBatchSize: own }),
        modelFile: file.path,
      };
    }
  }
}
