// The lint engine: paths -> model directories and config files -> parsed configs and model
// signatures -> rules (per config, then per repository) -> severities and suppressions -> results
// per file. It reads every file at most once per run, and reads a model only when a rule needs it.
import { basename, dirname, resolve } from 'node:path';
import type { Diagnostic, Severity } from '../diagnostics.js';
import { parseConfig, type ConfigDocument } from '../config/document.js';
import type { ModelConfig } from '../config/model-config.js';
import { OnnxReadError } from '../onnx/errors.js';
import { readSignatureSync } from '../onnx/reader.js';
import type { ModelSignature } from '../onnx/types.js';
import { listModelDirs, scanModelDir, type ModelDir } from '../repo/model-dir.js';
import { LintInputError } from './errors.js';
import { resolveModelFile, type ModelFile } from './model-file.js';
import { fileResult, summarize, type FileResult, type InputProblem, type LintResult } from './results.js';
import type { ModelContext, ModelInfo, ModelRule, Report, RepositoryContext, RepositoryModel, RepositoryRule, Rule, RuleFiles, RuleLevel } from './rule.js';
import { RULES } from './rules/index.js';
import { DEFAULT_SETTINGS, findSettingsFile, loadSettingsFile, type LintSettings } from './settings.js';
import { effectiveSeverity } from './severity.js';
import { displayPath } from '../util/display-path.js';
import { listingsOnce, listNames, UnreadablePathError } from '../util/list-dir.js';
import { fileSize, pathKind, type PathKind } from '../util/path-kind.js';
import type { AutofillListing } from '../config/autofill.js';
import { readAutofillListing } from '../resolve/listing.js';
import { readText } from '../util/read-text.js';
import { parseDirectives, suppresses, unknownIds, unusedDirectives, type Directive } from './suppressions.js';
import { looksLikeModelDir, resolveTargets, type LintTarget } from './targets.js';
import { byteRange, modelReadMessage } from './model-read.js';
import { didYouMean } from '../pbtxt/suggest.js';
import { IdentityCache } from '../util/file-identity.js';
import { append } from '../util/arrays.js';

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
  /** The rules to run (default: every registered rule). */
  rules?: readonly Rule[];
  /** Called after each config file, for a progress display. */
  onProgress?: (done: number, total: number) => void;
  /** Parsed configs and model signatures kept across runs while their files are unchanged (watch). */
  cache?: LintCache;
}

/** What a long-running caller (watch mode) keeps between runs, keyed by file identity. */
export interface LintCache {
  docs: IdentityCache<ConfigDocument | InputProblem>;
  signatures: IdentityCache<SignatureResult>;
}

export function createLintCache(): LintCache {
  return { docs: new IdentityCache(), signatures: new IdentityCache() };
}

/** Lints repositories, model directories or files. Throws LintInputError / SettingsError (exit 2). */
export async function lint(paths: readonly string[], options: LintOptions = {}): Promise<LintResult> {
  return lintSync(paths, options);
}

export function lintSync(paths: readonly string[], options: LintOptions = {}): LintResult {
  // One run reads the tree as it is: each directory is listed once, however many parts ask.
  return listingsOnce(() => lintListed(paths, options));
}

function lintListed(paths: readonly string[], options: LintOptions): LintResult {
  const cwd = options.cwd ?? process.cwd();
  const { targets, missing, unrecognized, unreadable } = resolveTargets(paths.length ? paths : ['.'], cwd);
  if (missing.length) throw new LintInputError(`${missing.join(', ')}: no such file or directory`, 'missing');
  if (unreadable.length) throw new LintInputError(unreadable.map((u) => `${displayPath(u.path, cwd)}: cannot read: ${u.reason}`).join('\n'), 'unreadable');
  if (unrecognized.length) {
    throw new LintInputError(`${unrecognized.join(', ')}: not a config (config.pbtxt, configs/<name>.pbtxt) or a model file inside a version directory`, 'unrecognized');
  }
  if (!targets.length) throw new LintInputError(`no config.pbtxt, configs/*.pbtxt or model directory found under ${paths.join(', ') || '.'}`);
  try {
    return new LintRun(options).run(targets);
  } catch (e) {
    // A model directory or version directory that cannot be listed: nothing in it was checked.
    if (e instanceof UnreadablePathError) throw new LintInputError(`${displayPath(e.path, cwd)}: cannot read: ${e.reason}`, 'unreadable');
    throw e;
  }
}

export interface LintTextOptions {
  /** The file name diagnostics carry (default `<dir>/config.pbtxt` of a model named `model`). */
  file?: string;
  /** The model's name (its directory name); default: the name of the file's directory. */
  modelName?: string;
  /** The model's signature, as if read from `modelFile`. */
  signature?: ModelSignature;
  modelFile?: string;
  settings?: LintSettings;
  ruleLevels?: Record<string, RuleLevel>;
  rules?: readonly Rule[];
}

/** Lints one config held in memory (editors, tests): the repository is that one model. */
export function lintText(text: string, options: LintTextOptions = {}): LintResult {
  const file = resolve(options.file ?? 'model/config.pbtxt');
  const run = new LintRun({ settings: options.settings, ruleLevels: options.ruleLevels, rules: options.rules });
  return run.runInMemory(text, file, options.modelName ?? basename(dirname(file)), options.modelFile ?? options.signature?.path, options.signature);
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

export interface SignatureResult {
  signature?: ModelSignature;
  error?: OnnxReadError;
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
}

const ENGINE_RULES = { syntax: 'syntax', invalidSuppression: 'invalid-suppression', unusedSuppression: 'unused-suppression' } as const;

class LintRun {
  private readonly rules: readonly Rule[];
  private readonly ruleIds: Set<string>;
  private readonly scans = new Map<string, ModelDir>();
  private readonly docs = new Map<string, ConfigDocument | InputProblem>();
  private readonly siblings = new Map<string, ConfigDocument | InputProblem>();
  private readonly autofillListings = new Map<string, AutofillListing>();
  private readonly signatures = new Map<string, SignatureResult>();
  private readonly settingsByFile = new Map<string, LintSettings>();
  private readonly settingsFileByDir = new Map<string, string | undefined>();
  private readonly ruleSets = new Map<LintSettings, RuleSet>();
  private readonly problems: InputProblem[] = [];
  /** Diagnostics in files that are not configs (model files), keyed by file. */
  private readonly otherFiles = new Map<string, Diagnostic[]>();

  constructor(private readonly options: LintOptions) {
    this.rules = options.rules ?? RULES;
    this.ruleIds = new Set(this.rules.map((r) => r.meta.id));
  }

  run(targets: LintTarget[]): LintResult {
    const units: Unit[] = [];
    for (const t of targets) append(units, this.unitsOf(t));
    const total = units.length;
    units.forEach((u, i) => {
      this.runModelRules(u);
      this.options.onProgress?.(i + 1, total);
    });
    this.runRepositoryRules(targets, units);
    return this.finish(units);
  }

  runInMemory(text: string, file: string, name: string, modelFile: string | undefined, signature: ModelSignature | undefined): LintResult {
    const doc = parseConfig(text, file);
    this.docs.set(file, doc);
    const ruleSet = this.ruleSet(this.options.settings ?? DEFAULT_SETTINGS);
    const unit: Unit = {
      name, dir: dirname(file), file, doc,
      modelFile: modelFile ? { format: 'onnx', version: undefined, path: modelFile, expected: modelFile } : undefined,
      signature: () => (signature ? { signature } : {}),
      ruleSet, diagnostics: [], directives: parseDirectives(text),
    };
    this.runModelRules(unit);
    const model: RepositoryModel = {
      ...this.modelInfo(name, unit.dir), configFile: file, doc, config: hasSyntaxErrors(doc) ? undefined : doc.value, isTarget: true,
      modelFile: () => modelFile, signature: () => signature,
    };
    this.runRepositoryRulesOn(unit.dir, [model], ruleSet, new Map([[file, unit]]));
    return this.finish([unit]);
  }

  // ---- settings ----

  private settingsFor(dir: string): LintSettings {
    if (this.options.settings) return this.options.settings;
    let file = this.options.settingsFile ? resolve(this.options.cwd ?? process.cwd(), this.options.settingsFile) : undefined;
    if (!file) {
      if (!this.settingsFileByDir.has(dir)) this.settingsFileByDir.set(dir, findSettingsFile(dir));
      file = this.settingsFileByDir.get(dir);
    }
    if (!file) return DEFAULT_SETTINGS;
    let s = this.settingsByFile.get(file);
    if (!s) this.settingsByFile.set(file, (s = loadSettingsFile(file, this.rules)));
    return s;
  }

  private ruleSet(base: LintSettings): RuleSet {
    const cached = this.ruleSets.get(base);
    if (cached) return cached;
    const gpu = this.options.gpuMemory ? { ...base.gpu, memoryBytes: this.options.gpuMemory.bytes, memorySource: this.options.gpuMemory.source } : base.gpu;
    const settings: LintSettings = { ...base, gpu };
    const levels = new Map<string, RuleLevel>();
    const active: ActiveRule[] = [];
    for (const rule of this.rules) {
      const configured = rule.meta.configurable === false ? undefined : (this.options.ruleLevels?.[rule.meta.id] ?? settings.rules[rule.meta.id]?.level);
      const level = configured ?? rule.meta.defaultSeverity;
      levels.set(rule.meta.id, level);
      if (level === 'off') continue;
      const raw = settings.rules[rule.meta.id]?.options;
      const options = rule.meta.options ? rule.meta.options.parse(raw ?? {}) : undefined;
      active.push({ rule, level, options });
    }
    const set = { settings, active, levels };
    this.ruleSets.set(base, set);
    return set;
  }

  // ---- loading ----

  private scan(dir: string): ModelDir {
    let s = this.scans.get(dir);
    if (!s) this.scans.set(dir, (s = scanModelDir(dir)));
    return s;
  }

  private doc(file: string): ConfigDocument | InputProblem {
    let d = this.docs.get(file);
    if (!d) {
      d = this.options.cache ? this.options.cache.docs.get(file, () => loadConfigDocument(file)) : loadConfigDocument(file);
      this.docs.set(file, d);
    }
    return d;
  }

  /**
   * The config of another model of the repository, which rules use only when it parses: read up to
   * its first syntax error, so a broken sibling costs little. Kept for this run only (a config that
   * is linted is read in full, through doc()).
   */
  private siblingDoc(file: string): ConfigDocument | InputProblem {
    let d = this.siblings.get(file);
    if (!d) {
      d = loadConfigDocument(file, { stopAtFirstError: true });
      this.siblings.set(file, d);
    }
    return d;
  }

  private signature(path: string): SignatureResult {
    let s = this.signatures.get(path);
    if (!s) {
      s = this.options.cache ? this.options.cache.signatures.get(path, () => loadSignature(path)) : loadSignature(path);
      this.signatures.set(path, s);
    }
    return s;
  }

  /** A model's facts for rules, each read on first use and then kept for the run. */
  private modelInfo(name: string, dir: string): ModelInfo {
    return {
      name,
      dir,
      layout: () => this.scan(dir),
      autofillListing: () => {
        let l = this.autofillListings.get(dir);
        if (!l) this.autofillListings.set(dir, (l = readAutofillListing(dir, name)));
        return l;
      },
    };
  }

  /** The files rules ask about, each looked at once per run. */
  private readonly files: RuleFiles = (() => {
    const kinds = new Map<string, PathKind | undefined>();
    const texts = new Map<string, string | undefined>();
    return {
      kind: (path) => {
        if (!kinds.has(path)) kinds.set(path, pathKind(path));
        return kinds.get(path);
      },
      names: (dir) => {
        try {
          return listNames(dir);
        } catch {
          return [];
        }
      },
      text: (file) => {
        if (!texts.has(file)) {
          const read = readText(file);
          texts.set(file, read.kind === 'text' ? read.text : undefined);
        }
        return texts.get(file);
      },
      size: (file) => fileSize(file),
    };
  })();

  private modelFileOf(dir: string, config: ModelConfig): ModelFile {
    return resolveModelFile(this.scan(dir), config);
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
      const syntaxOk = !hasSyntaxErrors(doc);
      const modelFile = syntaxOk ? this.modelFileOf(t.modelDir, doc.value) : undefined;
      const path = modelFile?.format === 'onnx' ? modelFile.path : undefined;
      units.push({
        name: scan.name, dir: t.modelDir, file, doc, modelFile,
        signature: () => (path ? this.signature(path) : {}),
        ruleSet, diagnostics: [], directives: parseDirectives(doc.text),
      });
    }
    // A model without a config: the model files named on the command line are still read and
    // checked, and so is the one Triton loads to auto-complete the config when the whole model
    // directory is linted.
    if (!files.length) {
      const checked = new Set([...t.modelFiles].filter((f) => f.endsWith('.onnx')));
      const loaded = t.configs === 'all' ? this.modelFileOf(t.modelDir, {}) : undefined;
      if (loaded?.format === 'onnx' && loaded.path) checked.add(loaded.path);
      for (const modelFile of checked) {
        const error = this.signature(modelFile).error;
        if (error && ruleSet.levels.get('model-unreadable') !== 'off') this.addOther(modelReadDiagnostic(error, ruleSet));
      }
    }
    return units;
  }

  private addOther(d: Diagnostic): void {
    const list = this.otherFiles.get(d.file) ?? [];
    list.push(d);
    this.otherFiles.set(d.file, list);
  }

  // ---- rules ----

  private reporter(unit: Unit, active: ActiveRule): (r: Report) => void {
    return (r) => {
      const natural = r.severity ?? (active.rule.meta.defaultSeverity === 'off' ? active.level : active.rule.meta.defaultSeverity);
      const d: Diagnostic = {
        ruleId: active.rule.meta.id,
        severity: effectiveSeverity(natural, active.rule.meta.defaultSeverity, active.level),
        message: r.message,
        file: r.file ?? unit.file,
        range: r.range ?? unit.doc.rangeOf(r.path ?? []),
        path: r.path ?? [],
      };
      if (r.fix) d.fix = r.fix;
      if (r.data) d.data = r.data;
      if (d.file === unit.file) unit.diagnostics.push(d);
      else if (!suppressedInFile(unit.directives, d.ruleId)) this.addOther(d);
    };
  }

  private runModelRules(unit: Unit): void {
    const syntaxOk = !hasSyntaxErrors(unit.doc);
    const needsModel = unit.ruleSet.active.some((a) => a.rule.scope === 'model' && (a.rule.meta.requiresModel || a.rule.meta.id === 'model-unreadable'));
    const sig = syntaxOk && needsModel ? unit.signature() : {};
    for (const active of unit.ruleSet.active) {
      if (active.rule.scope !== 'model') continue;
      const rule = active.rule as ModelRule<unknown>;
      // Rules see a config only once it parses: a partial value would make them report nonsense.
      if (!syntaxOk && rule.meta.id !== ENGINE_RULES.syntax) continue;
      if (rule.meta.requiresModel && !sig.signature) continue;
      const ctx: ModelContext<unknown> = {
        model: this.modelInfo(unit.name, unit.dir),
        file: unit.file,
        doc: unit.doc,
        config: unit.doc.value,
        modelFile: unit.modelFile?.format === 'onnx' ? unit.modelFile.path : undefined,
        signature: sig.signature,
        modelError: sig.error,
        settings: unit.ruleSet.settings,
        options: active.options,
        isEnabled: (id) => (unit.ruleSet.levels.get(id) ?? 'off') !== 'off',
        files: this.files,
        report: this.reporter(unit, active),
      };
      guarded(rule.meta.id, () => rule.check(ctx), (message) => ctx.report({ message, severity: 'error' }));
    }
  }

  private runRepositoryRules(targets: LintTarget[], units: Unit[]): void {
    const byRepo = new Map<string, LintTarget[]>();
    for (const t of targets) {
      const repo = dirname(t.modelDir);
      byRepo.set(repo, [...(byRepo.get(repo) ?? []), t]);
    }
    const unitByFile = new Map(units.map((u) => [u.file, u]));
    for (const [repo, repoTargets] of byRepo) {
      const ruleSet = this.ruleSet(this.settingsFor(repo));
      if (!ruleSet.active.some((a) => a.rule.scope === 'repository')) continue;
      const dirs = new Set([...listModelDirs(repo).filter(looksLikeModelDir), ...repoTargets.map((t) => t.modelDir)]);
      const models = [...dirs].sort().map((dir) => this.repositoryModel(dir, unitByFile));
      this.runRepositoryRulesOn(repo, models, ruleSet, unitByFile);
    }
  }

  private repositoryModel(dir: string, unitByFile: Map<string, Unit>): RepositoryModel {
    const scan = this.scan(dir);
    const configFile = scan.configPath;
    // With a cache (watch) every config is read in full once and kept; a single run reads the others lightly.
    const loaded = configFile ? (this.options.cache ? this.doc(configFile) : (this.docs.get(configFile) ?? this.siblingDoc(configFile))) : undefined;
    const doc = loaded && 'value' in loaded ? loaded : undefined;
    const config = doc && !hasSyntaxErrors(doc) ? doc.value : undefined;
    let file: ModelFile | undefined;
    const modelFile = (): ModelFile => (file ??= this.modelFileOf(dir, config ?? {}));
    return {
      ...this.modelInfo(scan.name, dir), configFile, doc, config,
      isTarget: configFile !== undefined && unitByFile.has(configFile),
      modelFile: () => modelFile().path,
      signature: () => {
        const f = modelFile();
        return f.format === 'onnx' && f.path ? this.signature(f.path).signature : undefined;
      },
    };
  }

  private runRepositoryRulesOn(dir: string, models: RepositoryModel[], ruleSet: RuleSet, unitByFile: Map<string, Unit>): void {
    for (const active of ruleSet.active) {
      if (active.rule.scope !== 'repository') continue;
      const rule = active.rule as RepositoryRule<unknown>;
      const ctx: RepositoryContext<unknown> = {
        dir, models, settings: ruleSet.settings, options: active.options, files: this.files,
        report: (model, r) => {
          const unit = model.configFile ? unitByFile.get(model.configFile) : undefined;
          // Only configs being linted get findings; the unit's own level for the rule applies.
          if (!unit || !model.isTarget) return;
          const own = unit.ruleSet.active.find((a) => a.rule.meta.id === rule.meta.id);
          if (own) this.reporter(unit, own)(r);
        },
      };
      const first = models.find((m) => m.isTarget);
      guarded(rule.meta.id, () => rule.check(ctx), (message) => first && ctx.report(first, { message, severity: 'error' }));
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
    return summarize(results, this.rules.map((r) => r.meta as never), this.problems);
  }

  private suppressionFindings(u: Unit): Diagnostic[] {
    const out: Diagnostic[] = [];
    const level = (id: string): Severity | undefined => {
      const l = u.ruleSet.levels.get(id);
      return l === undefined || l === 'off' ? undefined : l;
    };
    const invalid = level(ENGINE_RULES.invalidSuppression);
    if (invalid) {
      for (const r of unknownIds(u.directives, this.ruleIds)) {
        const hint = didYouMean(r.id, this.ruleIds);
        out.push({
          ruleId: ENGINE_RULES.invalidSuppression, severity: invalid, file: u.file, range: r.range, path: [],
          message: `'${r.id}' is not a tritonc rule, so this suppression does nothing${hint ? `; did you mean '${hint}'?` : ''}`,
        });
      }
    }
    const unused = level(ENGINE_RULES.unusedSuppression);
    if (unused) {
      for (const r of unusedDirectives(u.directives, this.ruleIds)) {
        out.push({
          ruleId: ENGINE_RULES.unusedSuppression, severity: unused, file: u.file, range: r.range, path: [],
          message: r.id ? `nothing to suppress: '${r.id}' reports no problem here; remove it from the comment` : 'nothing to suppress here; remove the comment',
        });
      }
    }
    return out;
  }
}

// ---- helpers -------------------------------------------------------------------------------------

/** Reads and parses a config; an unreadable file is an input problem (exit 2), not an exception. */
export function loadConfigDocument(file: string, options: { stopAtFirstError?: boolean } = {}): ConfigDocument | InputProblem {
  const read = readText(file);
  if (read.kind === 'text') return parseConfig(read.text, file, options);
  return { file, message: `cannot read: ${read.kind === 'missing' ? 'no such file' : read.reason}` };
}

/** Reads a model's signature; a bad file is a result with the error, never an exception. */
export function loadSignature(path: string): SignatureResult {
  try {
    return { signature: readSignatureSync(path) };
  } catch (e) {
    // A reader bug must not crash a lint run: it becomes a finding about the file.
    return { error: e instanceof OnnxReadError ? e : new OnnxReadError('format', path, null, (e as Error).message) };
  }
}

/** A rule that throws is a bug in tritonc: report it as a finding and let the other rules finish. */
function guarded(ruleId: string, run: () => void, report: (message: string) => void): void {
  try {
    run();
  } catch (e) {
    report(`internal error in rule ${ruleId}: ${(e as Error).message}; this is a bug in tritonc, please report it (suppress the rule meanwhile)`);
  }
}

function hasSyntaxErrors(doc: ConfigDocument): boolean {
  return doc.diagnostics.some((d) => d.severity === 'error');
}

/** File-wide directives in the config also cover findings in its model file. */
function suppressedInFile(directives: Directive[], ruleId: string): boolean {
  return suppresses(directives.filter((d) => d.kind === 'file'), ruleId, undefined);
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
function modelReadDiagnostic(error: OnnxReadError, ruleSet: RuleSet): Diagnostic {
  const level = ruleSet.levels.get('model-unreadable');
  return {
    ruleId: 'model-unreadable',
    severity: level === undefined || level === 'off' ? 'error' : level,
    message: modelReadMessage(error),
    file: error.file,
    range: byteRange(error.offset),
    path: [],
    data: { byteOffset: error.offset, kind: error.kind },
  };
}
