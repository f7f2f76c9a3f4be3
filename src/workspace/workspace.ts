// The repository read once: the facts every consumer (lint, resolve, generate --check, verify,
// watch, the editor) asks for, built lazily and kept for the run. Per model: its layout, what core's
// autofill sees, its config documents, the model file Triton opens and its signature, the
// autofilled and the effective config. Parsed configs are kept across runs while their file's
// identity is unchanged (an overlay's while its text is); everything else is asked again each run.
import type { DiskCache } from './disk-cache.js';
import { basename, dirname, join } from 'node:path';
import type { InputProblem } from '../diagnostics.js';
import { hasErrors, parseConfig, valueDocument, type ConfigDocument } from '../config/document.js';
import type { ModelConfig } from '../config/model-config.js';
import { readAutofillListing } from '../repo/autofill-listing.js';
import { listModelDirs, looksLikeModelDir, scanModelDir, type ModelDir, type VersionDir } from '../repo/model-dir.js';
import { selectVersions } from '../triton/version-policy.js';
import type { Tree } from '../repo/tree.js';
import { autofillBackendFields, autofillReadsFiles, type AutofillListing, type AutofillResult } from '../triton/autofill.js';
import { effectiveConfig, type ModelSource, type ResolveOptions, type ResolveResult } from '../triton/effective-config.js';
import { DEFAULT_TARGET } from '../triton/releases/target.js';
import type { TritonRelease } from '../triton/releases/catalog.js';
import { completedConfig, type CompletedConfig } from '../triton/completed-config.js';
import { gpuLoads, weightBytes, type GpuLoad, type WeighedModel } from '../triton/gpu-memory.js';
import { placementOf, type ModelSummary } from './model-summary.js';
import { hostShares, type HostShare } from '../triton/host-memory.js';
import { locateModelFile, type ModelFile } from '../triton/model-file-location.js';
import { Memo, Memos } from '../util/memo.js';
import { Sources, type FileSource, type SignatureResult } from './sources.js';
import type { ModelSignature } from '../model-file/signature.js';
import { formatOfSignature, readerOf } from '../model-readers/readers.js';
import { ownFileProblem } from '../util/own-file.js';
import { LOCK_FILE_NAME, LockError, lockDifference, lockedSignature, parseLock, signatureFromLock, type Lock, type LockDifference } from './lock.js';
import { isEnsemble, modelFileName, PYTHON } from '../triton/backend-records.js';
import type { ScriptFacts } from '../python-model/auto-complete-config.js';
import { ownValue } from '../util/name-record.js';

/** A repository's tritonc.lock.json: none, the lock, or why it cannot be used. */
export interface LockRead {
  file: string;
  lock?: Lock;
  error?: LockError;
}

export type ConfigRead = ConfigDocument | InputProblem;

export interface ReadConfigOptions {
  /**
   * Parse only up to the first syntax error: for configs read as facts about other models (an
   * ensemble's steps), which are used only when they parse. Kept for the run only.
   */
  stopAtFirstError?: boolean;
}

/**
 * One model directory's facts, each worked out on first use within a run: the one type for "a model"
 * that lint's rules, resolve, verify, the editor and the lock read.
 */
export interface ModelFacts {
  /** The directory name, which is the model's name in Triton. */
  readonly name: string;
  /** Absolute path of the model directory. */
  readonly dir: string;
  /** Its layout as Triton reads it: config files and version directories. */
  layout(): ModelDir;
  /** What core's AutoCompleteBackendFields sees of it: the first sub-directory and its entries. */
  autofillListing(): AutofillListing;
  /** core's AutoCompleteBackendFields of `release` (default: the release the repository is served as) on `config` in this directory. */
  autofill(config: ModelConfig, release?: TritonRelease): AutofillResult;
  /** Triton's default config file (<dir>/config.pbtxt), absolute; undefined when the model has none. */
  readonly configFile: string | undefined;
  /**
   * That file parsed: whole when it was read whole this run (a config being linted; every config in
   * a workspace kept across runs), else up to its first syntax error, as a fact about another model.
   */
  readonly doc: ConfigDocument | undefined;
  /** Its value; undefined when there is no config file, or it does not parse or cannot be read. */
  readonly config: ModelConfig | undefined;
  /** The file Triton opens for `config` (default: the model's own config; autofill is applied first). */
  modelFile(config?: ModelConfig): ModelFile;
  /**
   * The version directories Triton loads under `config`'s version_policy (default: the model's own
   * config), oldest first (triton/version-policy.ts: core VersionsToLoad).
   */
  versions(config?: ModelConfig): VersionDir[];
  /**
   * The name of the file `config`'s backend opens in a version directory (after core's auto-fill):
   * default_model_filename, else its backend record's; undefined for an ensemble or an unknown backend.
   */
  modelFileName(config?: ModelConfig): string | undefined;
  /** The ONNX signature of that file; undefined when it is not ONNX or cannot be read. */
  signature(): ModelSignature | undefined;
  /** The effective config Triton would load, on the server the repository is served by (Workspace.serve). */
  effective(options?: ResolveOptions): ResolveResult;
  /** Its config as other models see it once loaded, and which parts of it are known (completed-config.ts). */
  completed(): CompletedConfig;
  /**
   * What the Python script at `path` (a version's model.py) does to `config` in auto_complete_config:
   * read without running it, or run where the server's options say (--run-python-autocomplete).
   */
  scriptFacts(path: string, config: ModelConfig): ScriptFacts | undefined;
  /** What its repository's tritonc.lock.json records of it, if anything. */
  locked(): Lock['models'][string] | undefined;
  /**
   * How the model file of `version` as it is (`file` relative to the model directory, its size, and
   * its signature where tritonc reads its format) differs from what the lock records of that version:
   * 'not-locked' where the lock has no entry for it, undefined where they agree or there is no lock.
   */
  lockDrift(version: string, file: { file: string; size: number; signature?: ModelSignature }): LockDifference | 'not-locked' | undefined;
  /**
   * Its version directories and model files are provisioned elsewhere (a checkout of the configs,
   * --configs-only) and its repository's lock does not record it: what they say is unknown here.
   */
  filesElsewhere(): boolean;
}

/** A repository's facts (or those of several served by one server): what is true of its models together. */
export interface WorkspaceRepository {
  /** Absolute paths of the repositories. */
  readonly dirs: readonly string[];
  /** Their model directories: the sub-directories Triton would take as models. */
  modelDirs(): string[];
  /** The ensembles by directory, with the model names their steps run. */
  ensembleSteps(): ReadonlyMap<string, readonly string[]>;
  /** The ensembles (directories) whose steps run one of `models` (names). */
  ensemblesUsing(models: ReadonlySet<string>): string[];
  /**
   * What each GPU of a server with `gpuCount` GPUs holds (triton/gpu-memory.ts), over the model
   * directories, and `alsoDirs` (targets without a config.pbtxt).
   */
  gpuLoads(gpuCount: number, overheadBytes: number, alsoDirs?: readonly string[]): GpuLoad[];
  /** The models' CPU instances on a server with `gpuCount` GPUs, each a copy of its weights in host memory (triton/host-memory.ts); of `dirs` only, when given. */
  hostShares(gpuCount: number, dirs?: readonly string[]): HostShare[];
}

export class Workspace {
  readonly sources: Sources;
  private readonly memos = new Memos();
  /** Parsed configs, across runs while their file is unchanged (acrossRuns only). */
  private readonly docs = this.memos.process<ConfigRead>();
  /** Parsed unsaved texts, while the text is the same. */
  private readonly overlayDocs = this.memos.keystroke<ConfigRead>();
  private readonly models = this.memos.run<string, RunModel>();
  private readonly repositories = this.memos.run<string, RunRepository>();
  /** Other models' configs parsed up to their first error (stopAtFirstError). */
  private readonly lightDocs = this.memos.run<string, ConfigRead>();
  private readonly docsThisRun = this.memos.run<string, ConfigRead>();
  private readonly summaries = this.memos.run<string, ModelSummary>();
  private readonly locks = this.memos.run<string, LockRead>();
  /** How each repository's server is started (serve()), for this run. */
  private readonly served = this.memos.run<string, ResolveOptions>();
  /** Repositories whose model files are provisioned elsewhere (provisionElsewhere). */
  private readonly elsewhere = new Set<string>();
  /** The model files stood in from each repository's lock (standInLockedModels). */
  private readonly standIns = new Map<string, string[]>();

  private readonly acrossRuns: boolean;
  /** Other models' configs and signatures kept on disk between runs (lint --cache). */
  private readonly diskCache: DiskCache | undefined;

  /**
   * `acrossRuns`: keep parsed configs and model signatures from one run to the next while their
   * files are unchanged (watch mode, an editor); each lookup then costs a stat. A workspace for one
   * run (the default) reads each file once and asks nothing more.
   */
  constructor(options: { files?: FileSource; acrossRuns?: boolean; diskCache?: DiskCache } = {}) {
    this.acrossRuns = options.acrossRuns ?? false;
    this.diskCache = options.diskCache;
    this.sources = new Sources(options.files, this.acrossRuns, options.diskCache);
  }

  /** Starts a run: the disk is asked again; parsed configs stay while their files are unchanged. */
  newRun(): void {
    this.sources.newRun();
    this.memos.newRun();
  }

  /** Lays unsaved text over a file (absolute path). */
  setText(path: string, text: string): void {
    this.sources.setText(path, text);
    this.newRun();
  }

  clearOverlay(path: string): void {
    this.sources.clearOverlay(path);
    this.overlayDocs.delete(path);
    this.newRun();
  }

  /** Forgets what was kept of `path`, and of everything under it, from earlier runs (a watcher saw it change or go). */
  forget(path: string): void {
    const keep = (p: string): boolean => p !== path && !p.startsWith(`${path}/`);
    this.docs.prune(keep);
    this.sources.forget(keep);
    this.newRun();
  }

  /** How many parsed files are kept across runs (for tests of a long session's memory). */
  get cachedFiles(): number {
    return this.docs.size + this.sources.cachedSignatures;
  }

  get tree(): Tree {
    return this.sources;
  }

  /** A config file, read and parsed; an unreadable file is an input problem, not an exception. */
  config(file: string, options: ReadConfigOptions = {}): ConfigRead {
    // Answered from what this run kept, the file is still a path the asker's fact was made from.
    this.sources.note(file);
    if (this.sources.hasOverlay(file)) return this.overlayConfig(file);
    if (options.stopAtFirstError) {
      // A full parse already made this run is as good; otherwise a light one, for this run.
      return this.docsThisRun.peek(file) ?? this.lightDocs.get(file, (f) => this.readLightConfig(f, options));
    }
    return this.docsThisRun.get(file, (f) =>
      this.acrossRuns ? this.docs.get(f, this.sources.identity(f), () => this.readConfig(f, {})) : this.readConfig(f, {}),
    );
  }

  private overlayConfig(file: string): ConfigRead {
    const read = this.sources.text(file);
    const text = read.kind === 'text' ? read.text : '';
    return this.overlayDocs.get(file, text, () => parseConfig(text, file));
  }

  /** Another model's config: from the disk cache while the file is unchanged (its value only: no tree, no ranges). */
  private readLightConfig(file: string, options: ReadConfigOptions): ConfigRead {
    const kept = this.diskCache?.config(file, this.sources.identityOf);
    if (kept) return valueDocument(file, kept);
    const d = this.readConfig(file, options);
    if (this.diskCache && 'value' in d && !hasErrors(d.diagnostics)) this.diskCache.setConfig(file, d.value, this.sources.identityOf);
    return d;
  }

  private readConfig(file: string, options: ReadConfigOptions): ConfigRead {
    const read = this.sources.text(file);
    if (read.kind === 'text') return parseConfig(read.text, file, options);
    return { file, message: `cannot read: ${read.kind === 'missing' ? 'no such file' : read.reason}` };
  }

  /** The signature of the model file at `path`, read as `format` (the backend record's format of it). */
  signature(path: string, format: string): SignatureResult {
    return this.sources.signature(path, format);
  }

  model(dir: string, name = basename(dir)): ModelFacts {
    return this.models.get(dir, () => new RunModel(this, dir, name));
  }

  /**
   * What the repository-wide facts need of a model directory (model-summary.ts), once per run; with
   * lint --cache, kept on disk with the identities of the paths it was made from.
   */
  modelSummary(dir: string): ModelSummary {
    let summary = this.summaries.peek(dir);
    if (summary) return summary;
    const cache = this.diskCache;
    if (cache) {
      summary = cache.summary(dir, this.sources.identityOf);
      if (!summary) {
        // A model of its own, not the run's: what the run kept of this one would be read without being recorded.
        const made = this.sources.recorded(() => this.summarize(dir, new RunModel(this, dir, basename(dir))));
        summary = made.value;
        cache.setSummary(dir, summary, made.paths, this.sources.identityOf);
      }
    } else {
      summary = this.summarize(dir, this.model(dir));
    }
    this.summaries.set(dir, summary);
    return summary;
  }

  private summarize(dir: string, model: ModelFacts): ModelSummary {
    // Not a model to Triton: still weighed, for a lint target that is one to the user.
    const isModel = looksLikeModelDir(dir, this.sources);
    const file = model.layout().configPath;
    const doc = file ? this.config(file, { stopAtFirstError: true }) : undefined;
    // Only a config that parses is a fact; a directory without one is the empty config Triton starts from.
    const config = doc === undefined ? {} : 'value' in doc && !hasErrors(doc.diagnostics) ? doc.value : undefined;
    if (!config) return { model: isModel };
    const located = model.modelFile(config);
    const read = located.path ? this.signature(located.path, located.format).signature?.initializers.bytes : undefined;
    const bytes = weightBytes(config, read, read === undefined && located.path ? this.sources.size(located.path) : undefined);
    const steps = isEnsemble(config) ? (config.ensemble_scheduling?.step ?? []).flatMap((st) => (st.model_name ? [st.model_name] : [])) : undefined;
    return { model: isModel, placement: placementOf(config), ...(bytes !== undefined ? { weightBytes: bytes } : {}), ...(steps ? { steps } : {}) };
  }

  /** The repository's tritonc.lock.json, read once per run. */
  lock(repo: string): LockRead {
    return this.locks.get(repo, (r) => this.readLock(r));
  }

  private readLock(repo: string): LockRead {
    const file = join(repo, LOCK_FILE_NAME);
    // The lock is tritonc's own file: a committed link could make it read (and quote) any file.
    const entry = this.sources.entries(repo).find((e) => e.name === LOCK_FILE_NAME);
    if (entry?.link || (entry && entry.kind !== 'file')) return { file, error: new LockError(file, ownFileProblem(file, 'lock') ?? 'is not a regular file') };
    const read = this.sources.text(file);
    if (read.kind === 'missing') return { file };
    if (read.kind !== 'text') return { file, error: new LockError(file, `cannot read: ${read.reason}`) };
    try {
      const lock = parseLock(read.text, file);
      const names = Object.keys(lock.models);
      const dirs = new Set(this.modelDirs(repo).map((d) => basename(d)));
      // A lock whose models are all elsewhere was copied from another repository.
      if (names.length && dirs.size && !names.some((n) => dirs.has(n))) {
        return {
          file,
          error: new LockError(
            file,
            `it records ${names.slice(0, 3).join(', ')}${names.length > 3 ? ', ...' : ''}, none of which is a model of ${repo}: a lock of another repository? Run tritonc lock ${repo} where the model files are`,
          ),
        };
      }
      return { file, lock };
    } catch (e) {
      if (e instanceof LockError) return { file, error: e };
      throw e;
    }
  }

  /**
   * Says how the server that serves `repo` is started (auto-complete, --backend-config, its GPUs): the
   * effective and completed configs of its models are then worked out for it. For this run.
   */
  serve(repo: string, options: ResolveOptions): void {
    this.served.set(repo, options);
  }

  /** How `repo`'s server is started, as serve() said ({} when nothing was said). */
  servedAs(repo: string): ResolveOptions {
    return this.served.peek(repo) ?? {};
  }

  /** Whether configs and signatures are kept from one run to the next (watch, the editor). */
  get keptAcrossRuns(): boolean {
    return this.acrossRuns;
  }

  /**
   * Says that `repo`'s model files are provisioned elsewhere (configs-only): every fact that needs a
   * model file of a model its lock does not record is then unknown, not missing.
   */
  provisionElsewhere(repo: string): void {
    if (this.elsewhere.has(repo)) return;
    this.elsewhere.add(repo);
    this.newRun();
  }

  /** Whether `repo`'s model files are provisioned elsewhere. */
  isProvisionedElsewhere(repo: string): boolean {
    return this.elsewhere.has(repo);
  }

  /**
   * Stands the lock's model files in where this checkout lacks them (weights provisioned elsewhere)
   * or holds a Git LFS pointer instead: they then exist, with the locked size and signature, so every
   * check runs as it would against the weights. Returns how many were stood in.
   */
  standInLockedModels(repo: string): number {
    const previous = this.standIns.get(repo);
    if (previous) this.sources.clearModelStandIns(previous);
    this.newRun();
    const lock = this.lock(repo).lock;
    const standIns = new Map<string, { signature?: ModelSignature; size: number; dir?: boolean }>();
    for (const [name, model] of Object.entries(lock?.models ?? {})) {
      for (const v of Object.values(model.versions)) {
        const path = join(repo, name, v.file);
        const kind = this.sources.kind(path);
        const locked = v.signature ? signatureFromLock(v.signature, path) : undefined;
        const format = locked && formatOfSignature(locked);
        const absent = kind === undefined || (kind === 'file' && format !== undefined && this.sources.signature(path, format).error?.lfsPointer !== undefined);
        // A SavedModel stands in as the directory it is (its reader reads a directory).
        const dir = format !== undefined && readerOf(format)?.directory === true;
        if (absent) standIns.set(path, { ...(locked ? { signature: locked } : {}), size: v.size, ...(dir ? { dir } : {}) });
      }
    }
    this.standIns.set(repo, [...standIns.keys()]);
    if (standIns.size) this.sources.setModelStandIns(standIns);
    this.newRun();
    return standIns.size;
  }

  /** The sub-directories of a repository (Triton skips none by name; see repository().modelDirs()). */
  modelDirs(repo: string): string[] {
    return listModelDirs(repo, this.sources);
  }

  /** A repository's facts, or those of several repositories one server serves together. */
  repository(dirs: string | readonly string[]): WorkspaceRepository {
    const list = typeof dirs === 'string' ? [dirs] : [...dirs];
    const key = list.join('\0');
    return this.repositories.get(key, () => new RunRepository(this, list));
  }
}

/** A repository's facts for one run, from its models' summaries. */
class RunRepository implements WorkspaceRepository {
  private models: string[] | undefined;
  private ensembles: Map<string, string[]> | undefined;
  private readonly loads = new Memo<string, GpuLoad[]>();

  constructor(
    private readonly ws: Workspace,
    readonly dirs: readonly string[],
  ) {}

  modelDirs(): string[] {
    return (this.models ??= this.dirs.flatMap((dir) => this.ws.modelDirs(dir).filter((d) => this.ws.modelSummary(d).model)));
  }

  ensembleSteps(): ReadonlyMap<string, readonly string[]> {
    if (!this.ensembles) {
      this.ensembles = new Map();
      for (const dir of this.modelDirs()) {
        const steps = this.ws.modelSummary(dir).steps;
        if (steps) this.ensembles.set(dir, [...steps]);
      }
    }
    return this.ensembles;
  }

  ensemblesUsing(models: ReadonlySet<string>): string[] {
    return [...this.ensembleSteps()].filter(([, steps]) => steps.some((m) => models.has(m))).map(([dir]) => dir);
  }

  gpuLoads(gpuCount: number, overheadBytes: number, alsoDirs: readonly string[] = []): GpuLoad[] {
    const key = `${gpuCount}\0${overheadBytes}\0${alsoDirs.join('\0')}`;
    return this.loads.get(key, () => {
      const dirs = [...new Set([...this.modelDirs(), ...alsoDirs])].sort();
      const weighed: WeighedModel[] = [];
      for (const dir of dirs) {
        const { placement, weightBytes } = this.ws.modelSummary(dir);
        if (placement) weighed.push({ dir, config: placement, weightBytes });
      }
      return gpuLoads(weighed, gpuCount, overheadBytes);
    });
  }

  hostShares(gpuCount: number, dirs: readonly string[] = this.modelDirs()): HostShare[] {
    const weighed: WeighedModel[] = [];
    for (const dir of dirs) {
      const { placement, weightBytes } = this.ws.modelSummary(dir);
      if (placement) weighed.push({ dir, config: placement, weightBytes });
    }
    return hostShares(weighed, gpuCount);
  }
}

/** A model's facts for one run. */
class RunModel implements ModelFacts, ModelSource {
  private scanned: ModelDir | undefined;
  private listing: AutofillListing | undefined;
  private readonly autofills = new WeakMap<ModelConfig, Map<string, AutofillResult>>();
  private readonly files = new WeakMap<ModelConfig, ModelFile>();
  // The run's, as the model is (Workspace.model gives one per run).
  private readonly effectives = new Memo<string, ResolveResult>();
  private completion: CompletedConfig | undefined;
  /** The options of the effective config being worked out, which its ensemble steps are resolved with. */
  private lastOptions: ResolveOptions = {};
  /** The ensembles whose effective config is being worked out (a cycle of ensembles ends there). */
  private static readonly resolving = new Set<string>();

  constructor(
    private readonly ws: Workspace,
    readonly dir: string,
    readonly name: string,
  ) {}

  layout(): ModelDir {
    return (this.scanned ??= scanModelDir(this.dir, this.ws.tree));
  }

  autofillListing(): AutofillListing {
    return (this.listing ??= readAutofillListing(this.dir, this.name, this.ws.tree));
  }

  autofill(config: ModelConfig, release: TritonRelease = (this.ws.servedAs(dirname(this.dir)).target ?? DEFAULT_TARGET).release): AutofillResult {
    let byRelease = this.autofills.get(config);
    if (!byRelease) this.autofills.set(config, (byRelease = new Map<string, AutofillResult>()));
    let a = byRelease.get(release.container);
    if (a) return a;
    // The first sub-directory is listed only when its files can decide the backend.
    const readsFiles = autofillReadsFiles(config);
    a = autofillBackendFields(config, readsFiles ? this.autofillListing() : { modelName: this.name }, release);
    // No backend from files that are elsewhere: core would choose it from them at deploy.
    if (readsFiles && (a.problem || !a.config.backend) && this.filesElsewhere()) a = { config: a.config, steps: a.steps, unknownBackend: true };
    byRelease.set(release.container, a);
    return a;
  }

  filesElsewhere(): boolean {
    return this.ws.isProvisionedElsewhere(dirname(this.dir)) && this.locked() === undefined;
  }

  get configFile(): string | undefined {
    return this.layout().configPath;
  }

  get doc(): ConfigDocument | undefined {
    const file = this.configFile;
    // With a workspace kept across runs every config is read whole once and kept; a run of its own
    // reads another model's config up to its first error (one read whole this run is reused).
    const read = file ? this.ws.config(file, { stopAtFirstError: !this.ws.keptAcrossRuns }) : undefined;
    return read && 'value' in read ? read : undefined;
  }

  get config(): ModelConfig | undefined {
    const doc = this.doc;
    return doc && !hasErrors(doc.diagnostics) ? doc.value : undefined;
  }

  signature(): ModelSignature | undefined {
    const f = this.modelFile();
    return f.path ? this.ws.signature(f.path, f.format).signature : undefined;
  }

  completed(): CompletedConfig {
    return (this.completion ??= completedConfig(
      {
        // A model without a config is, to Triton, the empty config it starts from.
        config: this.configFile && !this.config ? undefined : (this.config ?? {}),
        autofill: (c) => this.autofill(c),
        modelFile: () => {
          const f = this.modelFile(this.config ?? {});
          return f.path ? { path: f.path, ...this.ws.signature(f.path, f.format) } : { ...(f.expected ? { expected: f.expected } : {}) };
        },
        // Where the backend looks for its script: the version directories, and the model directory (older layouts).
        scriptTexts: (file) =>
          [...this.layout().versionDirs.map((v) => join(v.path, file)), join(this.dir, file)].flatMap((p) => {
            const read = this.ws.sources.text(p);
            return read.kind === 'text' ? [read.text] : [];
          }),
        // The script the backend runs: <version Triton loads>/<file>.
        script: (file) => {
          const chosen = this.versions(this.autofill(this.config ?? {}).config).at(-1);
          const path = chosen ? join(chosen.path, file) : undefined;
          const text = path ? this.textAt(path) : undefined;
          return path && text !== undefined ? { path, text } : undefined;
        },
      },
      this.ws.servedAs(dirname(this.dir)),
    ));
  }

  scriptFacts(path: string, config: ModelConfig): ScriptFacts | undefined {
    const how = PYTHON.autoComplete;
    const text = this.textAt(path);
    if (text === undefined || how?.from !== 'script') return undefined;
    const run = this.ws.servedAs(dirname(this.dir)).runScript;
    if (!run) return how.read(text);
    // A run is a process: once per script, text and config in this model's life (rules share it).
    const key = JSON.stringify([path, text, config]);
    let facts = this.scriptRuns.get(key);
    if (!facts) this.scriptRuns.set(key, (facts = run(path, config)));
    return facts;
  }

  private readonly scriptRuns = new Map<string, ScriptFacts>();

  versions(config: ModelConfig = this.config ?? {}): VersionDir[] {
    return selectVersions(config.version_policy, this.layout().versionDirs);
  }

  modelFileName(config: ModelConfig = this.config ?? {}): string | undefined {
    return modelFileName(this.autofill(config).config);
  }

  modelFile(config: ModelConfig = this.config ?? {}): ModelFile {
    let f = this.files.get(config);
    if (!f) this.files.set(config, (f = locateModelFile(this.layout(), this.autofill(config).config, (p) => this.ws.tree.kind(p))));
    return f;
  }

  locked(): Lock['models'][string] | undefined {
    return ownValue(this.ws.lock(dirname(this.dir)).lock?.models, this.name);
  }

  lockDrift(version: string, file: { file: string; size: number; signature?: ModelSignature }): LockDifference | 'not-locked' | undefined {
    const locked = this.locked();
    if (!locked) return undefined;
    const entry = ownValue(locked.versions, version);
    if (!entry) return 'not-locked';
    const sig = file.signature;
    return lockDifference(entry, {
      file: file.file,
      size: file.size,
      weightBytes: sig ? sig.initializers.bytes : file.size,
      ...(sig ? { signature: lockedSignature(sig) } : {}),
    });
  }

  effective(given: ResolveOptions = {}): ResolveResult {
    // As the server the repository is served by would load it, unless the caller says otherwise.
    const options = { ...this.ws.servedAs(dirname(this.dir)), ...given };
    return this.effectives.get(JSON.stringify(options), () => {
      this.lastOptions = options;
      return effectiveConfig(this, options);
    });
  }

  // ModelSource, for the effective config.
  kind(path: string) {
    return this.ws.tree.kind(path);
  }

  readConfig(file: string): ConfigRead {
    return this.ws.config(file);
  }

  signatureAt(path: string, format: string): SignatureResult {
    return this.ws.signature(path, format);
  }

  textAt(path: string): string | undefined {
    const read = this.ws.sources.text(path);
    return read.kind === 'text' ? read.text : undefined;
  }

  stepDecoupled(modelName: string): boolean | undefined {
    // A step is another model directory of the same repository; a cycle of ensembles is not known.
    if (RunModel.resolving.has(this.dir) || !modelName || modelName.includes('/')) return undefined;
    const dir = join(dirname(this.dir), modelName);
    if (this.ws.tree.kind(dir) !== 'dir') return undefined;
    RunModel.resolving.add(this.dir);
    try {
      const step = this.ws.model(dir).effective(this.lastOptions);
      return step.status === 'ok' && step.pending.length === 0 ? step.config?.model_transaction_policy?.decoupled === true : undefined;
    } finally {
      RunModel.resolving.delete(this.dir);
    }
  }
}
