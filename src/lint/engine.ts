// The lint engine: paths -> model directories and config files -> parsed configs and model
// signatures -> rules (per config, then per repository) -> severities and suppressions -> results
// per file. Every fact comes from the workspace, which reads each file at most once per run (a model
// only when a rule asks for it) and lays unsaved text over the disk.
import type { CompletionOptions } from '../triton/backends/record.js';
import { basename, dirname, join, resolve } from 'node:path';
import type { Diagnostic, Severity } from '../diagnostics.js';
import { parseConfig, type ConfigDocument } from '../config/document.js';
import type { ModelConfig } from '../config/model-config.js';
import type { ModelReadError } from '../model-file/errors.js';
import type { ModelSignature } from '../model-file/signature.js';
import { LintInputError } from './errors.js';
import type { ModelFile } from '../triton/model-file-location.js';
import { describeRule, fileResult, summarize, type FileResult, type InputProblem, type LintResult } from './results.js';
import type {
  ConfigEdits,
  DeploymentContext,
  DeploymentFacts,
  DeploymentRule,
  ModelContext,
  ModelRule,
  Report,
  RepositoryContext,
  RepositoryRule,
  Rule,
  RuleFiles,
  RuleLevel,
  RuleMeta,
} from './rule.js';
import { RULES } from './rules/index.js';
import { DEFAULT_SETTINGS, findSettingsFile, loadSettingsFile, resolveOptionsOf, type LintSettings } from './settings.js';
import { effectiveSeverity } from './severity.js';
import { displayPath } from '../util/display-path.js';
import { UnreadablePathError } from '../util/unreadable-path.js';
import { entryNames } from '../repo/tree.js';
import { linkOutNote } from '../repo/find-configs.js';
import { parseDirectives, suppresses, unknownIds, unusedDirectives, type Directive } from './suppressions.js';
import { modelAboveVersionConfig, modelDirOfConfig, resolveTargets, type LintTarget } from './targets.js';
import { byteRange, modelReadReport } from './model-read.js';
import { modelUnreadable } from './rules/correctness/model-unreadable.js';
import { completeFix, configEdits } from './edits.js';
import { removalOf } from '../config/text-edits.js';
import { renderMessage } from './messages.js';
import { didYouMean } from '../pbtxt/suggest.js';
import { Workspace, type ConfigRead, type ModelFacts } from '../workspace/workspace.js';
import type { FileSource, SignatureResult } from '../workspace/sources.js';
import { append } from '../util/arrays.js';
import { applyServerFlags, type ServerOptions } from '../triton/server-options.js';
import { modelsLoadedAtStart } from '../triton/command-line.js';
import { fieldsMissingIn } from '../triton/schema-releases.js';
import { DEFAULT_TARGET, targetJson, targetLabel, type TritonTarget } from '../triton/releases/target.js';
import { DiskCache } from '../workspace/disk-cache.js';
import { OwnFileError } from '../util/own-file.js';
import { VERSION } from '../version.js';
import { nearRemoteUrl } from '../remote/url.js';
import { ONNX_MODEL_FILE } from '../triton/backend-records.js';
import { readerOf } from '../model-readers/readers.js';

export interface LintOptions {
  /** Relative paths are resolved against it (default: process.cwd()). */
  cwd?: string;
  /** Settings to use as they are, instead of looking for tritonc.config.json (library callers). */
  settings?: LintSettings;
  /** A settings file to use instead of looking for one (--config). */
  settingsFile?: string;
  /** Rule levels over the settings (--rule id=level). */
  ruleLevels?: Record<string, RuleLevel>;
  /** The GPU memory budget over the settings (--gpu-memory). */
  gpuMemory?: { bytes: number; source: string };
  /** GPUs per server over the settings (--gpus). */
  gpuCount?: number;
  /** Where gpuCount comes from, for messages (default "--gpus"; a deployment's nvidia.com/gpu limit). */
  gpuCountSource?: string;
  /**
   * The deployment that starts the server (lint --deployment): its rules run once on it and the models
   * of the repositories it serves, and report in its manifest.
   */
  deployment?: DeploymentFacts;
  /** tritonserver flags over the settings' `server` (the command line): backend settings add to the file's. */
  server?: Partial<ServerOptions>;
  /** --configs-only over the settings. */
  configsOnly?: boolean;
  /** The rules to run (default: every registered rule). */
  rules?: readonly Rule[];
  /**
   * A file where model signatures are kept between runs (lint --cache): read at the start, written at
   * the end. Only with a workspace of this run (not with `workspace`, which keeps its own).
   */
  cacheFile?: string;
  /** The clock (ms) the cache measures its racy window against: what changed within two seconds of it is not kept. */
  now?: () => number;
  /** Where the files are read (a repository in object storage: remote/repositories.ts); default the disk. Only without `workspace`. */
  files?: FileSource;
  /** Called after each config file, for a progress display. */
  onProgress?: (done: number, total: number) => void;
  /**
   * Runs Python models' auto_complete_config instead of reading it (--run-python-autocomplete;
   * src/cli/python-run.ts makes it): the effective configs and python-autocomplete use what it did.
   */
  runScript?: CompletionOptions['runScript'];
  /**
   * The repository's facts, kept across runs while files are unchanged (watch, the editor) and with
   * unsaved text laid over the disk. Default: a workspace for this run only.
   */
  workspace?: Workspace;
}

/** Lints repositories, model directories or files. Throws LintInputError / SettingsError (exit 2). */
export async function lint(paths: readonly string[], options: LintOptions = {}): Promise<LintResult> {
  return lintSync(paths, options);
}

export function lintSync(paths: readonly string[], options: LintOptions = {}): LintResult {
  // One run reads the tree as it is: each directory is listed once, however many parts ask.
  const cache =
    options.cacheFile && !options.workspace
      ? openCache(resolve(options.cwd ?? process.cwd(), options.cacheFile), options.cwd ?? process.cwd(), options.now)
      : undefined;
  // A workspace kept across runs starts a new one (the disk is asked again); a new workspace is one.
  const workspace = options.workspace ?? new Workspace({ ...(cache ? { diskCache: cache } : {}), ...(options.files ? { files: options.files } : {}) });
  if (options.workspace) workspace.newRun();
  const cwd = options.cwd ?? process.cwd();
  // With no paths, a server's --model-repository paths are what it serves, else the current directory.
  const given = paths.length ? paths : options.server?.modelRepositories?.length ? options.server.modelRepositories : ['.'];
  const { targets, missing, unrecognized, unreadable, linksOut } = resolveTargets(given, cwd, workspace.tree);
  if (missing.length)
    throw new LintInputError(
      missing
        .map(
          (m) =>
            `${m}: no such file or directory${nearRemoteUrl(m) ? ` (a repository URL is written in lower case with two slashes, as Triton reads it: ${nearRemoteUrl(m)})` : ''}`,
        )
        .join(', '),
      'missing',
    );
  if (unreadable.length) throw new LintInputError(unreadable.map((u) => `${displayPath(u.path, cwd)}: cannot read: ${u.reason}`).join('\n'), 'unreadable');
  if (unrecognized.length) {
    throw new LintInputError(
      `${unrecognized.join(', ')}: not a config (config.pbtxt, configs/<name>.pbtxt) or a model file inside a version directory`,
      'unrecognized',
    );
  }
  // A deployment's repository may hold no model: its rules say what the server makes of that.
  if (!targets.length && !options.deployment) throw new LintInputError(`no config.pbtxt, configs/*.pbtxt or model directory found under ${given.join(', ')}`);
  try {
    const result = new LintRun(options, workspace).run(targets);
    // A link the search for models did not go through is said, never skipped in silence.
    const notSearched: InputProblem[] = linksOut.map((l) => ({ file: l.path, message: linkOutNote(l.target), level: 'warning' }));
    const unsaved = cache?.save();
    // The findings stand without the cache: its loss is said, and changes no exit code.
    const problems = unsaved
      ? [
          ...notSearched,
          ...result.problems,
          {
            file: cache!.file,
            message: `cannot write the cache (the findings stand; the next run reads the models again): ${unsaved}`,
            level: 'warning' as const,
          },
        ]
      : [...notSearched, ...result.problems];
    return problems.length === result.problems.length ? result : { ...result, problems };
  } catch (e) {
    // A model directory or version directory that cannot be listed: nothing in it was checked.
    if (e instanceof UnreadablePathError) throw new LintInputError(`${displayPath(e.path, cwd)}: cannot read: ${e.reason}`, 'unreadable');
    throw e;
  }
}

/** The --cache file: one at a link or a non-file is refused (exit 2), never read or written through. */
function openCache(file: string, cwd: string, now: (() => number) | undefined): DiskCache {
  try {
    return new DiskCache(file, VERSION, now);
  } catch (e) {
    if (e instanceof OwnFileError) throw new LintInputError(`${displayPath(e.file, cwd)}: ${e.problem}, or give another file with --cache-location`, 'cache');
    throw e;
  }
}

export interface LintTextOptions {
  /** Where the text stands (default `model/config.pbtxt`): it is laid over the disk there. */
  file?: string;
  /** The model's signature, laid over the disk as the model file (default `<dir>/1/model.onnx`). */
  signature?: ModelSignature;
  modelFile?: string;
  settings?: LintSettings;
  ruleLevels?: Record<string, RuleLevel>;
  rules?: readonly Rule[];
}

/**
 * Lints one config held in memory (editors, tests): the text is laid over the disk at `file`, so
 * the findings are those of the same text saved there, with the rest of the repository as it is.
 */
export function lintText(text: string, options: LintTextOptions = {}): LintResult {
  const file = resolve(options.file ?? 'model/config.pbtxt');
  const workspace = new Workspace();
  workspace.setText(file, text);
  if (options.signature)
    workspace.sources.setSignature(resolve(options.modelFile ?? options.signature.path ?? join(dirname(file), '1', ONNX_MODEL_FILE)), options.signature);
  // As on disk (targets.ts): a config inside a version directory is linted with the model above it.
  const above = modelAboveVersionConfig(file, workspace.tree);
  const target: LintTarget = above
    ? { modelDir: above, configs: 'all', modelFiles: new Set() }
    : { modelDir: modelDirOfConfig(file), configs: new Set([file]), modelFiles: new Set() };
  return new LintRun({ settings: options.settings, ruleLevels: options.ruleLevels, rules: options.rules }, workspace).run([target]);
}

// ---- one run -------------------------------------------------------------------------------------

interface ActiveRule {
  rule: Rule;
  level: Severity;
  options: unknown;
}

interface RuleSet {
  settings: LintSettings;
  active: ActiveRule[];
  levels: Map<string, RuleLevel>;
}

/** One config file to lint, with what its rules see. */
interface Unit {
  name: string;
  dir: string;
  file: string;
  doc: ConfigDocument;
  modelFile: ModelFile | undefined;
  /** Read on first call. */
  signature: () => SignatureResult;
  ruleSet: RuleSet;
  diagnostics: Diagnostic[];
  directives: Directive[];
  /**
   * A model directory without config.pbtxt, linted as Triton loads it: from an empty config (which
   * auto-complete fills in), at the path of the config.pbtxt Triton would read.
   */
  virtual: boolean;
}

const ENGINE_RULES = { syntax: 'syntax', invalidSuppression: 'invalid-suppression', unusedSuppression: 'unused-suppression' } as const;

class LintRun {
  private readonly rules: readonly Rule[];
  private readonly ruleIds: Set<string>;
  private readonly settingsByFile = new Map<string, LintSettings>();
  private readonly settingsFileByDir = new Map<string, string | undefined>();
  private readonly ruleSets: RuleSets;
  private readonly problems: InputProblem[] = [];
  /** Diagnostics in files that are not configs (model files), keyed by file. */
  private readonly otherFiles = new Map<string, Diagnostic[]>();

  constructor(
    private readonly options: LintOptions,
    private readonly ws: Workspace,
  ) {
    this.rules = options.rules ?? RULES;
    this.ruleIds = new Set(this.rules.map((r) => r.meta.id));
    this.ruleSets = commandLineSetsNothing(options) ? sharedRuleSets(this.rules) : new Map();
  }

  run(targets: LintTarget[]): LintResult {
    this.useLocks(targets);
    const units: Unit[] = [];
    for (const t of targets) append(units, this.unitsOf(t));
    const total = units.length;
    units.forEach((u, i) => {
      this.runModelRules(u);
      this.options.onProgress?.(i + 1, total);
    });
    this.runRepositoryRules(targets, units);
    if (this.options.deployment) this.runDeploymentRules(this.options.deployment, targets);
    return this.finish(units);
  }

  /**
   * Each repository's tritonc.lock.json: one that cannot be used stops the run (exit 2); under
   * configs-only it stands in for the model files this checkout lacks.
   */
  private useLocks(targets: LintTarget[]): void {
    for (const repo of new Set(targets.map((t) => dirname(t.modelDir)))) {
      const read = this.ws.lock(repo);
      if (read.error) throw new LintInputError(`${displayPath(read.error.file, this.options.cwd ?? process.cwd())}: ${read.error.problem}`, 'lock');
      if (!this.ruleSet(this.settingsFor(repo)).settings.configsOnly) continue;
      // The model files are provisioned elsewhere: the lock stands in for those it records, the
      // others are unknown (a fact of the workspace every rule reads).
      this.ws.provisionElsewhere(repo);
      if (read.lock) this.ws.standInLockedModels(repo);
    }
  }

  // ---- settings ----

  private settingsFor(dir: string): LintSettings {
    if (this.options.settings) return this.options.settings;
    let file = this.options.settingsFile ? resolve(this.options.cwd ?? process.cwd(), this.options.settingsFile) : undefined;
    if (!file) {
      file = this.settingsFileByDir.has(dir) ? this.settingsFileByDir.get(dir) : findSettingsFile(dir, this.settingsFileByDir, (p) => this.ws.tree.kind(p));
    }
    if (!file) return DEFAULT_SETTINGS;
    let s = this.settingsByFile.get(file);
    if (!s) this.settingsByFile.set(file, (s = loadSettingsFile(file, this.rules)));
    return s;
  }

  private ruleSet(base: LintSettings): RuleSet {
    const cached = this.ruleSets.get(base);
    if (cached) return cached;
    const settings = withCommandLine(base, this.options);
    const levels = new Map<string, RuleLevel>();
    const active: ActiveRule[] = [];
    for (const rule of this.rules) {
      const configured = rule.meta.configurable === false ? undefined : (this.options.ruleLevels?.[rule.meta.id] ?? settings.rules[rule.meta.id]?.level);
      const level = configured ?? rule.meta.defaultSeverity;
      levels.set(rule.meta.id, level);
      if (level === 'off') continue;
      active.push({ rule, level, options: optionsOf(rule, settings.rules[rule.meta.id]?.options) });
    }
    const set = { settings, active, levels };
    this.ruleSets.set(base, set);
    return set;
  }

  // ---- loading: every fact comes from the workspace ----

  private doc(file: string): ConfigRead {
    return this.ws.config(file);
  }

  private signature(path: string, format: string): SignatureResult {
    return this.ws.signature(path, format);
  }

  /**
   * A model's facts for rules: the workspace's, as they are. Its effective and completed configs
   * follow the server the settings describe (said to the workspace once per repository and run).
   */
  private modelFacts(dir: string, settings: LintSettings, name = basename(dir)): ModelFacts {
    this.ws.serve(dirname(dir), { ...resolveOptionsOf(settings), ...(this.options.runScript ? { runScript: this.options.runScript } : {}) });
    return this.ws.model(dir, name);
  }

  /** The files rules ask about, each looked at once per run. */
  private readonly files: RuleFiles = {
    kind: (path) => this.ws.tree.kind(path),
    names: (dir) => {
      try {
        return entryNames(this.ws.tree, dir);
      } catch {
        return [];
      }
    },
    text: (file) => {
      const read = this.ws.sources.text(file);
      return read.kind === 'text' ? read.text : undefined;
    },
    size: (file) => this.ws.sources.size(file),
    realpath: (path) => this.ws.tree.realpath(path),
  };

  private modelFileOf(dir: string, config: ModelConfig): ModelFile {
    return this.ws.model(dir).modelFile(config);
  }

  private scan(dir: string) {
    return this.ws.model(dir).layout();
  }

  private unitsOf(t: LintTarget): Unit[] {
    const scan = this.scan(t.modelDir);
    const files = t.configs === 'all' ? [...(scan.configPath ? [scan.configPath] : []), ...scan.customConfigs] : [...t.configs];
    const ruleSet = this.ruleSet(this.settingsFor(t.modelDir));
    const units: Unit[] = [];
    for (const file of files) {
      const doc = this.doc(file);
      if (!('value' in doc)) {
        this.problems.push(doc);
        continue;
      }
      units.push(this.unit(t, scan.name, file, doc, ruleSet, false));
    }
    if (files.length || t.configs !== 'all') return units;
    // A model without a config: Triton starts from an empty one (or, without auto-complete, refuses
    // the model), so it is linted as that empty config at the path Triton reads.
    const file = join(t.modelDir, 'config.pbtxt');
    const unit = this.unit(t, scan.name, file, parseConfig('', file), ruleSet, true);
    units.push(unit);
    // Model files named on the command line besides the one Triton loads are read and checked too.
    for (const modelFile of [...t.modelFiles].filter((f) => f.endsWith('.onnx') && f !== unit.modelFile?.path)) {
      const error = this.signature(modelFile, 'onnx').error;
      if (error && ruleSet.levels.get('model-unreadable') !== 'off') this.addOther(modelReadDiagnostic(error, ruleSet));
    }
    return units;
  }

  private unit(t: LintTarget, name: string, file: string, doc: ConfigDocument, ruleSet: RuleSet, virtual: boolean): Unit {
    const modelFile = hasSyntaxErrors(doc) ? undefined : this.modelFileOf(t.modelDir, doc.value);
    const path = modelFile && readerOf(modelFile.format) ? modelFile.path : undefined;
    return {
      name,
      dir: t.modelDir,
      file,
      doc,
      modelFile,
      signature: () => (path && modelFile ? this.signature(path, modelFile.format) : {}),
      ruleSet,
      diagnostics: [],
      directives: parseDirectives(doc.text),
      virtual,
    };
  }

  private addOther(d: Diagnostic): void {
    const list = this.otherFiles.get(d.file) ?? [];
    list.push(d);
    this.otherFiles.set(d.file, list);
  }

  // ---- rules ----

  /** A rule's report on a unit, as a diagnostic of the config or of another file (its model file). */
  private report(unit: Unit, active: ActiveRule, r: Report): void {
    const natural = r.severity ?? (active.rule.meta.defaultSeverity === 'off' ? active.level : active.rule.meta.defaultSeverity);
    // A file that does not exist cannot be edited: findings on a missing config carry no fix.
    const report = unit.virtual && (r.fix || r.suggest) ? { ...r, fix: undefined, suggest: undefined } : r;
    const d = toDiagnostic(active.rule.meta, report, effectiveSeverity(natural, active.rule.meta.defaultSeverity, active.level), unit.file, unit.doc);
    if (d.file === unit.file) unit.diagnostics.push(d);
    else if (!suppressedInFile(unit.directives, d.ruleId)) this.addOther(d);
  }

  private runModelRules(unit: Unit): void {
    // Rules see a config only once Triton can read it: a partial value would make them report
    // nonsense. A missing config.pbtxt is unreadable on a server that does not auto-complete.
    // A field the target release's schema lacks stops its parser as a syntax error does (field-release).
    const syntaxOk = !hasSyntaxErrors(unit.doc) && !fieldsMissingIn(unit.doc.value, unit.ruleSet.settings.server.target.release).length;
    const readable = syntaxOk && !(unit.virtual && !unit.ruleSet.settings.server.autoCompleteConfig);
    // The model is read on first ask (the workspace keeps it): by the engine for rules that require
    // it, by any rule that looks at ctx.signature.
    let read: SignatureResult | undefined;
    const sig = (): SignatureResult => (read ??= readable ? unit.signature() : {});
    // What every rule of this config sees is made once; each rule's context adds its options.
    const facts: UnitFacts = {
      modelChecks: unit.ruleSet.active.filter((a) => a.rule.meta.requiresModel).map((a) => a.rule.meta.id),
      model: this.modelFacts(unit.dir, unit.ruleSet.settings, unit.name),
      modelFile: unit.modelFile?.format === 'onnx' ? unit.modelFile.path : undefined,
      sig,
      isEnabled: (id) => (unit.ruleSet.levels.get(id) ?? 'off') !== 'off',
      files: this.files,
      edits: undefined,
      report: (active, r) => this.report(unit, active, r),
    };
    for (const active of unit.ruleSet.active) {
      if (active.rule.scope !== 'model') continue;
      const rule = active.rule as ModelRule<unknown>;
      if (!readable && !rule.meta.unreadableConfigs) continue;
      // A signature read without its inputs and outputs (an AOTInductor package) checks nothing: unchecked-model says so.
      if (rule.meta.requiresModel && (!sig().signature || sig().signature!.ioUnknown !== undefined)) continue;
      const ctx = new RuleContext(unit, facts, active);
      try {
        rule.check(ctx);
      } catch (e) {
        ctx.report(internalError(rule.meta.id, e));
      }
    }
  }

  private runRepositoryRules(targets: LintTarget[], units: Unit[]): void {
    // One server serves its --model-repository paths together: their models are one namespace.
    const byServer = new Map<string, { repositories: string[]; targets: LintTarget[]; ruleSet: RuleSet }>();
    for (const t of targets) {
      const repo = dirname(t.modelDir);
      const ruleSet = this.ruleSet(this.settingsFor(repo));
      const served = ruleSet.settings.server.modelRepositories;
      const repositories = served.includes(repo) ? [...served] : [repo];
      const key = repositories.join('\0');
      const group = byServer.get(key);
      if (group) group.targets.push(t);
      else byServer.set(key, { repositories, targets: [t], ruleSet });
    }
    const unitByFile = new Map(units.map((u) => [u.file, u]));
    for (const { repositories, targets: served, ruleSet } of byServer.values()) {
      if (!ruleSet.active.some((a) => a.rule.scope === 'repository')) continue;
      const inRepositories = this.ws.repository(repositories).modelDirs();
      const dirs = new Set([...inRepositories, ...served.map((t) => t.modelDir)]);
      const models = [...dirs].sort().map((dir) => this.modelFacts(dir, this.ruleSet(this.settingsFor(dirname(dir))).settings));
      this.runRepositoryRulesOn(repositories, models, ruleSet, unitByFile);
    }
  }

  private runRepositoryRulesOn(repositories: string[], models: ModelFacts[], ruleSet: RuleSet, unitByFile: Map<string, Unit>): void {
    const facts = this.ws.repository(repositories);
    // The models whose default config is being linted (a model without one, as the empty config).
    const isTarget = (model: ModelFacts): boolean => unitByFile.has(join(model.dir, 'config.pbtxt'));
    // Targets without a config.pbtxt are models too: their instances count on the GPUs.
    const targetDirs = models.map((m) => m.dir);
    const repository: RepositoryContext['repository'] = {
      gpuLoads: (gpuCount, overheadBytes) => facts.gpuLoads(gpuCount, overheadBytes, targetDirs),
      ensemblesUsing: (names) => facts.ensemblesUsing(names),
      hostShares: (gpuCount, dirs) => facts.hostShares(gpuCount, dirs),
    };
    for (const active of ruleSet.active) {
      if (active.rule.scope !== 'repository') continue;
      const rule = active.rule as RepositoryRule<unknown>;
      const ctx: RepositoryContext<unknown> = {
        repositories,
        models,
        repository,
        settings: ruleSet.settings,
        options: active.options,
        files: this.files,
        isTarget,
        edits: (model) => (model.doc ? configEdits(model.doc) : NO_EDITS),
        report: (model, r) => {
          const unit = unitByFile.get(join(model.dir, 'config.pbtxt'));
          // Only configs being linted get findings; the unit's own level for the rule applies.
          if (!unit) return;
          const own = unit.ruleSet.active.find((a) => a.rule.meta.id === rule.meta.id);
          if (own) this.report(unit, own, r);
        },
      };
      try {
        rule.check(ctx);
      } catch (e) {
        const first = models.find(isTarget);
        if (first) ctx.report(first, internalError(rule.meta.id, e));
      }
    }
  }

  private runDeploymentRules(deployment: DeploymentFacts, targets: LintTarget[]): void {
    const first = targets[0];
    const ruleSet = this.ruleSet(this.settingsFor(first ? dirname(first.modelDir) : (deployment.repositories[0]?.path ?? '.')));
    if (!ruleSet.active.some((a) => a.rule.scope === 'deployment')) return;
    const repositories = deployment.repositories.map((r) => r.path);
    const facts = this.ws.repository(repositories);
    const dirs = [...new Set(facts.modelDirs())].sort();
    const models = dirs.map((dir) => this.modelFacts(dir, this.ruleSet(this.settingsFor(dirname(dir))).settings));
    const repository: RepositoryContext['repository'] = {
      gpuLoads: (gpuCount, overheadBytes) => facts.gpuLoads(gpuCount, overheadBytes, dirs),
      ensemblesUsing: (names) => facts.ensemblesUsing(names),
      hostShares: (gpuCount, dirs) => facts.hostShares(gpuCount, dirs),
    };
    const byName = new Map(models.map((m) => [m.name, m]));
    const stepsOf = (name: string) => (byName.get(name)?.config?.ensemble_scheduling?.step ?? []).map((st) => st.model_name ?? '');
    const loadedNames = modelsLoadedAtStart(deployment.server.commandLine, [...byName.keys()], stepsOf);
    const loaded = models.filter((m) => loadedNames.has(m.name));
    for (const active of ruleSet.active) {
      if (active.rule.scope !== 'deployment') continue;
      const rule = active.rule as DeploymentRule<unknown>;
      const meta = rule.meta;
      const ctx: DeploymentContext<unknown> = {
        deployment,
        models,
        loaded,
        repository,
        settings: ruleSet.settings,
        options: active.options,
        files: this.files,
        report: (r) => {
          const natural = r.severity ?? (meta.defaultSeverity === 'off' ? active.level : meta.defaultSeverity);
          const template = meta.messages[r.messageId] ?? ENGINE_MESSAGES[r.messageId]!;
          this.addOther({
            ruleId: meta.id,
            messageId: r.messageId,
            severity: effectiveSeverity(natural, meta.defaultSeverity, active.level),
            message: renderMessage(template, r.data ?? {}),
            file: r.at.file,
            range: r.at.range,
            path: [],
            ...(r.data ? { data: { ...r.data } } : {}),
          });
        },
      };
      try {
        rule.check(ctx);
      } catch (e) {
        ctx.report({ at: deployment.server.at, ...internalError(meta.id, e) });
      }
    }
  }

  // ---- results ----

  private finish(units: Unit[]): LintResult {
    const results: FileResult[] = [];
    for (const u of units) {
      const kept = u.diagnostics.filter((d) => d.ruleId === ENGINE_RULES.syntax || !suppresses(u.directives, d.ruleId, d.range.start.line));
      append(kept, this.suppressionFindings(u));
      results.push(fileResult(u.file, dedupe(kept)));
    }
    for (const [file, diagnostics] of this.otherFiles) results.push(fileResult(file, dedupe(diagnostics)));
    // The releases judged against: each settings file may name its own; none linted, the command line's.
    const targets = new Map<string, TritonTarget>();
    for (const u of units) targets.set(targetLabel(u.ruleSet.settings.server.target), u.ruleSet.settings.server.target);
    if (!targets.size) {
      const t = this.options.server?.target ?? this.options.settings?.server.target ?? DEFAULT_TARGET;
      targets.set(targetLabel(t), t);
    }
    return summarize(
      results,
      this.rules.map((r) => describeRule(r.meta)),
      this.problems,
      [...targets.values()].map(targetJson),
    );
  }

  private suppressionFindings(u: Unit): Diagnostic[] {
    const out: Diagnostic[] = [];
    const engineRule = (id: string): { meta: RuleMeta<unknown>; level: Severity } | undefined => {
      const l = u.ruleSet.levels.get(id);
      const rule = this.rules.find((r) => r.meta.id === id);
      return l === undefined || l === 'off' || !rule ? undefined : { meta: rule.meta, level: l };
    };
    const invalid = engineRule(ENGINE_RULES.invalidSuppression);
    if (invalid) {
      for (const r of unknownIds(u.directives, this.ruleIds)) {
        const hint = didYouMean(r.id, this.ruleIds);
        const report: Report = hint
          ? {
              messageId: 'unknownRuleDidYouMean',
              data: { id: r.id, suggestion: hint },
              range: r.range,
              suggest: [{ description: `replace '${r.id}' with '${hint}'`, edits: [{ range: r.range, text: hint }] }],
            }
          : { messageId: 'unknownRule', data: { id: r.id }, range: r.range };
        out.push(toDiagnostic(invalid.meta, report, invalid.level, u.file, u.doc));
      }
    }
    const unused = engineRule(ENGINE_RULES.unusedSuppression);
    if (unused) {
      for (const r of unusedDirectives(u.directives, this.ruleIds)) {
        const report: Report = r.id
          ? { messageId: 'unusedRule', data: { id: r.id }, range: r.range }
          : { messageId: 'unused', range: r.range, fix: { description: 'remove the comment', edits: [removalOf(u.doc.text, r.range)] } };
        out.push(toDiagnostic(unused.meta, report, unused.level, u.file, u.doc));
      }
    }
    return out;
  }
}

// ---- helpers -------------------------------------------------------------------------------------

/**
 * Rule sets of settings with nothing over them from the command line are the same in every run with
 * the same rules (the editor lints on each keystroke): made once per settings object. They are read,
 * never changed.
 */
const SHARED_RULE_SETS = new WeakMap<readonly Rule[], WeakMap<LintSettings, RuleSet>>();

/** A run's rule sets by the settings they were made from. */
type RuleSets = { get(settings: LintSettings): RuleSet | undefined; set(settings: LintSettings, set: RuleSet): unknown };

function sharedRuleSets(rules: readonly Rule[]): RuleSets {
  let sets = SHARED_RULE_SETS.get(rules);
  if (!sets) SHARED_RULE_SETS.set(rules, (sets = new WeakMap()));
  return sets;
}

/** Each rule's options when none are set, parsed once: every run without them (each keystroke in the editor) asks. */
const DEFAULT_OPTIONS = new WeakMap<Rule, unknown>();

/** A rule's options as it reads them (its schema's defaults filled in); the shared defaults are frozen. */
function optionsOf(rule: Rule, raw: unknown): unknown {
  if (!rule.meta.options) return undefined;
  if (raw !== undefined) return rule.meta.options.parse(raw);
  if (!DEFAULT_OPTIONS.has(rule)) DEFAULT_OPTIONS.set(rule, deepFreeze(rule.meta.options.parse({})));
  return DEFAULT_OPTIONS.get(rule);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** Whether no flag is set over the settings: every option withCommandLine and ruleSet read (keep the two in step). */
function commandLineSetsNothing(o: LintOptions): boolean {
  return o.ruleLevels === undefined && o.gpuMemory === undefined && o.gpuCount === undefined && o.server === undefined && o.configsOnly === undefined;
}

/** The settings with the command line's flags over them. */
function withCommandLine(base: LintSettings, o: LintOptions): LintSettings {
  const gpu = {
    ...base.gpu,
    ...(o.gpuMemory ? { memoryBytes: o.gpuMemory.bytes, memorySource: o.gpuMemory.source } : {}),
    ...(o.gpuCount !== undefined ? { count: o.gpuCount, countSource: o.gpuCountSource ?? '--gpus' } : {}),
  };
  return { ...base, gpu, server: applyServerFlags(base.server, o.server ?? {}), configsOnly: o.configsOnly ?? base.configsOnly };
}

/** What every rule of one config sees. */
interface UnitFacts {
  modelChecks: readonly string[];
  model: ModelFacts;
  modelFile: string | undefined;
  sig: () => SignatureResult;
  isEnabled: (ruleId: string) => boolean;
  files: RuleFiles;
  edits: ConfigEdits | undefined;
  report: (active: ActiveRule, r: Report) => void;
}

/**
 * A rule's context: a class, so that every context has one shape, the model is read on first ask,
 * and a rule's context costs one object (thirty-odd rules run on every config, in every keystroke's run).
 */
class RuleContext implements ModelContext<unknown> {
  readonly model: ModelFacts;
  readonly file: string;
  readonly doc: ConfigDocument;
  readonly config: ModelConfig;
  readonly modelFile: string | undefined;
  readonly settings: LintSettings;
  readonly files: RuleFiles;
  readonly modelChecks: readonly string[];
  readonly options: unknown;

  constructor(
    unit: Unit,
    private readonly facts: UnitFacts,
    private readonly active: ActiveRule,
  ) {
    this.options = active.options;
    this.model = facts.model;
    this.file = unit.file;
    this.doc = unit.doc;
    this.config = unit.doc.value;
    this.modelFile = facts.modelFile;
    this.settings = unit.ruleSet.settings;
    this.files = facts.files;
    this.modelChecks = facts.modelChecks;
  }

  get signature(): ModelSignature | undefined {
    return this.facts.sig().signature;
  }

  get modelError(): ModelReadError | undefined {
    return this.facts.sig().error;
  }

  get edits(): ConfigEdits {
    return (this.facts.edits ??= configEdits(this.doc));
  }

  isEnabled(ruleId: string): boolean {
    return this.facts.isEnabled(ruleId);
  }

  report(r: Report): void {
    this.facts.report(this.active, r);
  }
}

/** The message of a rule that throws, which every rule has: the engine reports it. */
const INTERNAL_ERROR = '$internalError';
const ENGINE_MESSAGES: Record<string, string> = {
  [INTERNAL_ERROR]: 'internal error in rule {{ruleId}}: {{error}}; this is a bug in tritonc, please report it (suppress the rule meanwhile)',
};

const NO_EDITS: ConfigEdits = { replaceValue: () => undefined, replaceField: () => undefined, removeField: () => undefined };

/** A report as a diagnostic: its message rendered from the rule's template, its fix kept when complete. */
function toDiagnostic(meta: RuleMeta<unknown>, r: Report, severity: Severity, file: string, doc: ConfigDocument): Diagnostic {
  const template = meta.messages[r.messageId] ?? ENGINE_MESSAGES[r.messageId];
  if (template === undefined) throw new Error(`rule ${meta.id} reported the message '${r.messageId}', which its meta.messages does not define`);
  const data = r.data;
  const d: Diagnostic = {
    ruleId: meta.id,
    messageId: r.messageId,
    severity,
    message: renderMessage(template, data ?? {}),
    file: r.file ?? file,
    range: r.range ?? doc.rangeOf(r.path ?? []),
    path: r.path ?? [],
  };
  const elsewhere = r.file !== undefined && r.file !== file;
  const fix = elsewhere ? undefined : completeFix(r.fix);
  if (fix) d.fix = fix;
  const suggestions = elsewhere ? [] : (r.suggest ?? []).map(completeFix).filter((x) => x !== undefined);
  if (suggestions.length) d.suggestions = suggestions;
  if (data) d.data = { ...data };
  return d;
}

/** A rule that throws is a bug in tritonc: reported as a finding, while the other rules finish. */
function internalError(ruleId: string, e: unknown): Report {
  return { messageId: INTERNAL_ERROR, data: { ruleId, error: (e as Error).message }, severity: 'error' };
}

function hasSyntaxErrors(doc: ConfigDocument): boolean {
  return doc.diagnostics.some((d) => d.severity === 'error');
}

/** File-wide directives in the config also cover findings in its model file. */
function suppressedInFile(directives: Directive[], ruleId: string): boolean {
  return suppresses(
    directives.filter((d) => d.kind === 'file'),
    ruleId,
    undefined,
  );
}

/** Two findings are the same when rule, file, place and message are. */
function diagnosticKey(d: Diagnostic): string {
  return `${d.ruleId}\0${d.file}\0${d.range.start.line}:${d.range.start.offset}\0${d.message}`;
}

function dedupe(list: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return list.filter((d) => {
    const key = diagnosticKey(d);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The finding for an unreadable model named on the command line of a model without a config. */
function modelReadDiagnostic(error: ModelReadError, ruleSet: RuleSet): Diagnostic {
  const level = ruleSet.levels.get('model-unreadable');
  const severity = level === undefined || level === 'off' ? 'error' : level;
  const d: Diagnostic = { ruleId: 'model-unreadable', severity, message: '', file: error.file, range: byteRange(error.offset), path: [] };
  const r = modelReadReport(error);
  return { ...d, messageId: r.messageId, message: renderMessage(modelUnreadable.meta.messages[r.messageId], r.data ?? {}), data: { ...r.data } };
}
