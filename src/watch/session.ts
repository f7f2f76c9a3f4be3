// A watch session: the current lint report of a repository, kept up to date change by change.
// A change re-lints only what it affects: the changed models, the ensembles that use them, and the
// per-GPU memory rule across the repository (its totals depend on every model). Parsed configs and
// model signatures are cached by file identity, so unchanged models are never read again.
import { DEFAULT_TARGET, targetJson } from '../triton/releases/target.js';
import { existsSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { Diagnostic, TargetJson } from '../diagnostics.js';
import { findTargets } from '../generate/targets.js';
import { generateForTarget } from '../generate/run.js';
import { lintSync, type LintOptions } from '../lint/engine.js';
import { describeRule, fileResult, summarize, type FileResult, type InputProblem, type LintResult } from '../lint/results.js';
import { Workspace } from '../workspace/workspace.js';
import { hasReader } from '../model-readers/readers.js';
import type { ModelFile } from '../triton/model-file-location.js';
import { RULES } from '../lint/rules/index.js';
import type { Rule } from '../lint/rule.js';
import { LintInputError } from '../lint/errors.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { describeFsError } from '../util/read-text.js';
import { classifyChange, type ClassifiedChange } from './classify.js';
import { isDirectory as isDir } from '../util/path-kind.js';
import { displayPath } from '../util/display-path.js';
import { append } from '../util/arrays.js';

/** Repository-scoped rules whose findings on one model depend on every other model. */
const REPOSITORY_WIDE = new Set(['instance-memory']);

/** A model file modified this recently and unreadable is taken as still being written. */
const STILL_WRITING_MS = 2000;

export interface WatchEvent {
  event: 'add' | 'change' | 'unlink' | 'addDir' | 'unlinkDir';
  path: string;
}

export interface RunReport {
  event: 'initial' | 'change';
  /** Paths that changed, relative to the working directory. */
  changed: string[];
  result: LintResult;
  /** Things to tell the user besides the findings: regenerated configs, models still being written. */
  notes: string[];
  /** Model files that look half-written: the session asks to be called again for them. */
  waiting: string[];
}

export interface WatchSessionOptions {
  repo: string;
  cwd: string;
  /** Regenerate tritonc-generated configs whose model file changed. */
  generate?: boolean;
  lint?: Omit<LintOptions, 'workspace' | 'cwd' | 'rules'>;
  rules?: readonly Rule[];
  now?: () => number;
}

export class WatchSession {
  /** The repository's facts, kept across changes while files are unchanged. */
  private readonly workspace = new Workspace({ acrossRuns: true });
  /** Current findings per file. */
  private readonly findings = new Map<string, Diagnostic[]>();
  private readonly problems = new Map<string, InputProblem>();
  private readonly rules: readonly Rule[];
  /** The releases the last lint judged against (the settings file may name one): what reports record. */
  private triton: readonly TargetJson[] = [targetJson(DEFAULT_TARGET)];

  constructor(private readonly options: WatchSessionOptions) {
    this.rules = options.rules ?? RULES;
  }

  /** The first full lint. */
  initial(): RunReport {
    const models = this.workspace.modelDirs(this.options.repo).map((d) => relative(this.options.repo, d));
    const result = this.lint(
      models.map((m) => join(this.options.repo, m)),
      this.rules,
    );
    this.findings.clear();
    this.problems.clear();
    for (const r of result.results) this.findings.set(r.filePath, r.diagnostics);
    this.keepProblems(result);
    return this.report('initial', [], [], []);
  }

  /** Applies a batch of file events and re-lints what they affect. */
  change(events: WatchEvent[]): RunReport {
    const changes = events.map((e) => ({
      ...classifyChange(this.options.repo, e.path, e.event === 'addDir' || e.event === 'unlinkDir' || isDir(e.path)),
      event: e.event,
    }));
    const models = new Set(changes.map((c) => c.model).filter((m): m is string => m !== undefined));
    const notes: string[] = [];
    const waiting: string[] = [];

    this.workspace.newRun();
    for (const c of changes) if (c.event === 'unlink' || c.event === 'unlinkDir') this.forget(c.path);
    const stillWriting = new Set(changes.filter((c) => this.stillBeingWritten(c)).map((c) => c.path));
    for (const p of stillWriting) waiting.push(p);
    if (this.options.generate) append(notes, this.regenerate(changes, stillWriting));

    // The changed models and the ensembles that use them, as they exist now.
    const affected = new Set([...models].filter((m) => isDir(join(this.options.repo, m))));
    for (const e of this.ensemblesUsing(models)) affected.add(e);
    // Models that are gone take their findings with them.
    for (const m of models) if (!affected.has(m)) this.dropModel(m);

    const targets = [...affected].map((m) => join(this.options.repo, m));
    if (targets.length) {
      const result = this.lint(targets, this.rules);
      for (const m of affected) this.dropModel(m);
      this.keepProblems(result);
      for (const r of result.results) {
        // While a model file is still being written, its read error is not news yet.
        const kept = r.diagnostics.filter((d) => !(d.ruleId === 'model-unreadable' && stillWriting.has(d.file)));
        this.findings.set(r.filePath, kept);
      }
    }
    this.refreshRepositoryWide();
    const changed = [...new Set(events.map((e) => displayPath(e.path, this.options.cwd)))];
    return this.report(
      'change',
      changed,
      notes,
      waiting.map((p) => displayPath(p, this.options.cwd)),
    );
  }

  /** How many parsed files the session holds (for tests of its memory use). */
  get cachedFiles(): number {
    return this.workspace.cachedFiles;
  }

  // ---- helpers ----

  private lint(targets: string[], rules: readonly Rule[]): LintResult {
    const existing = targets.filter((t) => existsSync(t));
    if (!existing.length)
      return summarize(
        [],
        rules.map((r) => describeRule(r.meta)),
        [],
        this.triton,
      );
    try {
      const result = lintSync(existing, { ...this.options.lint, cwd: this.options.cwd, workspace: this.workspace, rules });
      this.triton = result.triton;
      return result;
    } catch (e) {
      // A model directory without a config yet (being created) is not a lint input: nothing to report.
      // One that cannot be read is: its models were not checked.
      const unreadable = e instanceof LintInputError && e.problem === 'unreadable';
      if (!(e instanceof LintInputError)) throw e;
      return summarize(
        [],
        rules.map((r) => describeRule(r.meta)),
        unreadable ? [{ file: '', message: e.message }] : [],
        this.triton,
      );
    }
  }

  /** Re-runs the rules whose findings depend on the whole repository, and swaps in their findings. */
  private refreshRepositoryWide(): void {
    const rules = this.rules.filter((r) => REPOSITORY_WIDE.has(r.meta.id));
    if (!rules.length) return;
    const models = this.workspace.modelDirs(this.options.repo);
    const result = this.lint(models, rules);
    for (const [file, list] of this.findings)
      this.findings.set(
        file,
        list.filter((d) => !REPOSITORY_WIDE.has(d.ruleId)),
      );
    for (const r of result.results) {
      const fresh = r.diagnostics.filter((d) => REPOSITORY_WIDE.has(d.ruleId));
      if (!fresh.length && !this.findings.has(r.filePath)) continue;
      this.findings.set(r.filePath, [...(this.findings.get(r.filePath) ?? []), ...fresh]);
    }
  }

  /** Ensembles whose steps name one of the models. */
  private ensemblesUsing(models: Set<string>): string[] {
    if (!models.size) return [];
    return this.workspace
      .repository(this.options.repo)
      .ensemblesUsing(models)
      .map((dir) => relative(this.options.repo, dir));
  }

  private dropModel(model: string): void {
    const prefix = join(this.options.repo, model);
    const inModel = (file: string): boolean => file === prefix || file.startsWith(`${prefix}/`);
    for (const file of [...this.findings.keys()]) if (inModel(file)) this.findings.delete(file);
    for (const file of [...this.problems.keys()]) if (inModel(file)) this.problems.delete(file);
  }

  /** Files the last lint of their model could not read stay in every report until they read. */
  private keepProblems(result: LintResult): void {
    // A problem without a file (a directory that cannot be listed) stands until the next lint says otherwise.
    this.problems.delete('');
    for (const p of result.problems) this.problems.set(p.file, p);
  }

  private forget(path: string): void {
    this.workspace.forget(path);
  }

  /**
   * The model file Triton opens for the changed path's model, when the path is that file, a file in it
   * (a SavedModel directory) or beside it in its version directory (OpenVINO's weights), and tritonc
   * reads its format.
   */
  private changedModelFile(c: ClassifiedChange): ModelFile | undefined {
    if (c.kind !== 'model-file' || c.model === undefined) return undefined;
    const f = this.workspace.model(join(this.options.repo, c.model)).modelFile();
    if (!f.path || !hasReader(f.format)) return undefined;
    return c.path === f.path || c.path.startsWith(`${f.path}/`) || dirname(c.path) === dirname(f.path) ? f : undefined;
  }

  /** A model file that changed moments ago and does not read yet is taken as still being written. */
  private stillBeingWritten(c: ClassifiedChange): boolean {
    const file = this.changedModelFile(c);
    if (!file?.path) return false;
    let mtimeMs: number;
    try {
      mtimeMs = statSync(c.path).mtimeMs;
    } catch {
      return false;
    }
    if ((this.options.now ?? Date.now)() - mtimeMs > STILL_WRITING_MS) return false;
    if (!this.workspace.signature(file.path, file.format).error) return false;
    // Don't keep the half-written state: read it again next time.
    this.workspace.forget(file.path);
    return true;
  }

  /** --generate: rewrite tritonc's own configs of models whose model file changed. */
  private regenerate(changes: (ClassifiedChange & { event: string })[], stillWriting: Set<string>): string[] {
    const notes: string[] = [];
    const models = new Set(changes.filter((c) => c.event !== 'unlink' && !stillWriting.has(c.path) && this.changedModelFile(c)).map((c) => c.model!));
    for (const m of models) {
      const dir = join(this.options.repo, m);
      const found = findTargets(dir, this.workspace);
      if ('error' in found) continue;
      for (const target of found.targets) {
        const outcome = generateForTarget(target, { options: undefined, cwd: this.options.cwd, workspace: this.workspace });
        const shown = displayPath(target.configPath, this.options.cwd);
        if (outcome.kind !== 'generated') {
          notes.push(`not regenerating ${shown}: ${outcome.kind === 'problems' ? outcome.problems.map((p) => p.message).join('; ') : outcome.message}`);
          continue;
        }
        if (outcome.decision === 'unchanged') continue;
        if (outcome.decision === 'edited') {
          notes.push(
            `not regenerating ${shown}: it was edited by hand (or not written by tritonc); run tritonc generate --check ${displayPath(dir, this.options.cwd)} to see the differences`,
          );
          continue;
        }
        try {
          // Through no link below the watched repository (a model directory linked out of it).
          writeFileAtomic(target.configPath, outcome.text, { within: [this.options.repo] });
        } catch (e) {
          notes.push(`not regenerating ${shown}: cannot write it: ${describeFsError(e)}; the file is unchanged`);
          continue;
        }
        this.workspace.forget(target.configPath);
        notes.push(`${outcome.decision === 'create' ? 'wrote' : 'regenerated'} ${shown} from ${displayPath(target.modelFile, this.options.cwd)}`);
      }
    }
    return notes;
  }

  private report(event: RunReport['event'], changed: string[], notes: string[], waiting: string[]): RunReport {
    const results: FileResult[] = [...this.findings].map(([file, diagnostics]) => fileResult(file, diagnostics));
    return {
      event,
      changed,
      result: summarize(
        results,
        this.rules.map((r) => describeRule(r.meta)),
        [...this.problems.values()],
        this.triton,
      ),
      notes,
      waiting,
    };
  }
}
