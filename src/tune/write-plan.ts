// tune plan's output: one loadable variant of the model per combination, each with its
// perf_analyzer script, run.sh and tune-plan.json, written into a fresh directory beside the
// destination, linted there, and moved into place in one rename: a failure or a refusal leaves
// nothing, and nothing is written through a link tritonc did not make.
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmdirSync, rmSync, symlinkSync } from 'node:fs';
import { writeNewFile } from '../util/atomic-write.js';
import { basename, dirname, join } from 'node:path';
import { hasErrors, parseConfig } from '../config/document.js';
import { setFields } from '../config/set-fields.js';
import { lintSync } from '../lint/engine.js';
import type { ServerOptions } from '../triton/server-options.js';
import type { LintResult } from '../lint/results.js';
import { describeFsError, readText } from '../util/read-text.js';
import { shellLine } from '../util/shell.js';
import { Workspace } from '../workspace/workspace.js';
import { regenerate } from './generated-header.js';
import { DeployError, PORTS, planDeployment } from '../deploy/plan.js';
import type { ResolveOptions } from '../triton/effective-config.js';
import type { RemoteLocation } from '../remote/url.js';
import { JOBS_FILE, jobNames, jobsText, type JobVariant } from './kubernetes-jobs.js';
import { measureScript, perfAnalyzerCommand, planVariants, runScript, type MeasureOptions, type PlanAxes, type PlannedVariants, type Variant } from './plan.js';

/** Why no plan could be made from the input (the command line's exit 2). */
export class TunePlanError extends Error {}

export interface PlanRequest extends PlanAxes {
  modelDir: string;
  out: string;
  measure: MeasureOptions;
  /** The server's HTTP endpoint, where run.sh loads and unloads the variants. */
  httpUrl: string;
  /** Paths in messages are relative to it. */
  cwd: string;
  shown: (path: string) => string;
  /** The server's options the variants are linted with (the Triton target, its flags) over the settings file's. */
  server?: Partial<ServerOptions>;
  /** --kubernetes-jobs: the plan's Jobs written beside it too (kubernetes-jobs.ts). */
  kubernetes?: KubernetesJobsRequest;
}

export interface KubernetesJobsRequest {
  /** Where the plan directory is synced to; as the user named the plan directory. */
  repository: RemoteLocation;
  planDir: string;
  results: RemoteLocation;
  /** The server's options (the settings file's with the flags') and the effective configs' options, as tritonc deploy takes them. */
  server: ServerOptions;
  resolve: ResolveOptions;
}

export type PlanOutcome =
  | { kind: 'written'; model: string; variants: Variant[]; notes: string[] }
  /** The model itself does not lint clean: its variants would be refused too. */
  | { kind: 'model-refused'; lint: LintResult }
  /** A variant would not load: nothing was written. */
  | { kind: 'variants-refused'; lint: LintResult };

/** The model's config as written and its variants, or why Triton would not load the model. */
export type PlannedModel =
  | { kind: 'planned'; model: string; source: string; configFile: string; decoupled: boolean; planned: PlannedVariants }
  | { kind: 'model-refused'; lint: LintResult };

/** Reads the model, lints it (variants of a model Triton refuses would be refused too), and plans its variants. Throws TunePlanError. */
export function planModel(modelDir: string, axes: PlanAxes, cwd: string, shown: (path: string) => string, server: Partial<ServerOptions> = {}): PlannedModel {
  const ws = new Workspace();
  if (ws.tree.kind(modelDir) !== 'dir') throw new TunePlanError(`${shown(modelDir)}: not a model directory`);
  const effective = ws.model(modelDir).effective();
  if (effective.status !== 'ok') {
    const f = effective.failure;
    const why = effective.problems[0]?.message ?? (f && 'message' in f ? f.message : f ? `${f.file} has syntax errors` : 'it cannot be read');
    throw new TunePlanError(`Triton would not load ${shown(modelDir)} (${why}); fix it first (tritonc lint ${shown(modelDir)})`);
  }
  const own = lintSync([modelDir], { cwd, server });
  if (own.errorCount) return { kind: 'model-refused', lint: own };
  const model = basename(modelDir);
  const configFile = effective.configFile ?? join(modelDir, 'config.pbtxt');
  const read = readText(configFile);
  const source = read.kind === 'text' ? read.text : '';
  const written = parseConfig(source, configFile);
  if (hasErrors(written.diagnostics)) throw new TunePlanError(`${shown(configFile)} does not parse; run tritonc lint on it first`);
  const planned = planVariants(model, written.value, effective.config!, axes);
  return { kind: 'planned', model, source, configFile, decoupled: effective.config!.model_transaction_policy?.decoupled === true, planned };
}

export function writeTunePlan(req: PlanRequest): PlanOutcome {
  const { modelDir, out, shown } = req;
  const ws = new Workspace();
  const read = planModel(modelDir, req, req.cwd, shown, req.server ?? {});
  if (read.kind === 'model-refused') return read;
  const { model, source, configFile, decoupled, planned } = read;
  if (decoupled && req.measure.protocol === 'http')
    throw new TunePlanError('the model is decoupled, and perf_analyzer measures a decoupled model over gRPC streaming only: use --protocol grpc');

  const existing = ws.tree.kind(out);
  if (ws.tree.entries(dirname(out)).find((e) => e.name === basename(out))?.link)
    throw new TunePlanError(`${shown(out)} is a symbolic link, and tritonc writes through no link it did not make: give a new directory`);
  if (existing !== undefined && existing !== 'dir') throw new TunePlanError(`${shown(out)} exists and is not a directory; give a new directory`);
  if (existing === 'dir' && ws.tree.entries(out).length) throw new TunePlanError(`${shown(out)} exists and is not empty; give a new directory`);
  let tmp: string;
  try {
    mkdirSync(dirname(out), { recursive: true });
    // A name no one can have planted: mkdtemp makes it, private, beside the destination (one rename away).
    tmp = mkdtempSync(join(dirname(out), `.${basename(out)}.tritonc-`));
  } catch (e) {
    throw new TunePlanError(`cannot write beside ${shown(out)}: ${describeFsError(e)}`);
  }
  try {
    // Each file is new in the directory just made, never one found there (writeNewFile).
    const write = writeNewFile;
    const commands: Record<string, string> = {};
    for (const v of planned.variants) {
      const edited = setFields(source, configFile, v.changes);
      if (!edited.ok) throw new TunePlanError(`${v.name}: ${edited.problem}`);
      const dir = join(tmp, v.name);
      mkdirSync(dir);
      // A config tritonc generate wrote gets the header generate writes for the variant's options.
      const regenerated = regenerate(modelDir, source, edited.text, v.settings, req.cwd, v.name, ws);
      write(join(dir, 'config.pbtxt'), regenerated.kind === 'regenerated' ? regenerated.text : edited.text);
      // The rest of the model directory (version directories, label files) is linked, not copied.
      for (const entry of readdirSync(modelDir)) {
        if (entry === 'config.pbtxt' || entry === 'configs') continue;
        symlinkSync(join(modelDir, entry), join(dir, entry));
      }
      const command = perfAnalyzerCommand(v.name, decoupled, req.measure);
      commands[v.name] = shellLine(command);
      write(join(dir, 'perf_analyzer.sh'), measureScript(v.name, command));
    }
    write(
      join(tmp, 'run.sh'),
      runScript(
        planned.variants.map((v) => v.name),
        req.httpUrl,
      ),
      0o755,
    );
    const plan = {
      model,
      modelDir,
      percentile: `p${req.measure.percentile}`,
      variants: planned.variants.map((v) => ({ name: v.name, settings: v.settings, command: commands[v.name] })),
    };
    write(join(tmp, 'tune-plan.json'), `${JSON.stringify(plan, null, 2)}\n`);
    const result = lintSync([tmp], { cwd: req.cwd, server: req.server ?? {} });
    if (result.errorCount) return { kind: 'variants-refused', lint: result };
    if (req.kubernetes) write(join(tmp, JOBS_FILE), kubernetesJobs(req.kubernetes, tmp, model, planned.variants, decoupled, req.measure));
    if (existing === 'dir') rmdirSync(out); // empty, checked above; rmdir refuses anything else
    renameSync(tmp, out);
  } catch (e) {
    if (e instanceof TunePlanError) throw e;
    throw new TunePlanError(`cannot write ${shown(out)}: ${describeFsError(e)}`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return { kind: 'written', model, variants: planned.variants, notes: planned.notes };
}

/** The Jobs of the plan written in `dir`: each variant deployed alone, as tritonc deploy decides it, and measured as its perf_analyzer.sh measures it. */
function kubernetesJobs(
  k: KubernetesJobsRequest,
  dir: string,
  model: string,
  variants: readonly Variant[],
  decoupled: boolean,
  measure: MeasureOptions,
): string {
  const names = jobNames(model, variants.length);
  // perf_analyzer reaches the server in its own pod.
  const local: MeasureOptions = { ...measure, url: `localhost:${measure.protocol === 'grpc' ? PORTS.grpc : PORTS.http}` };
  const ws = new Workspace();
  const jobs = variants.map((v, i): JobVariant => {
    let outcome;
    try {
      outcome = planDeployment({
        repo: dir,
        named: k.repository.url,
        storageUri: k.repository.url,
        name: names[i]!,
        server: k.server,
        resolve: k.resolve,
        models: [v.name],
        workspace: ws,
      });
    } catch (e) {
      if (e instanceof DeployError) throw new TunePlanError(`--kubernetes-jobs: ${v.name}: ${e.message}`);
      throw e;
    }
    if (outcome.kind === 'refused') throw new TunePlanError(`--kubernetes-jobs: ${v.name}: ${outcome.problems.map((p) => p.message).join('; ')}`);
    return { name: v.name, deploy: outcome.plan, command: perfAnalyzerCommand(v.name, decoupled, local) };
  });
  return jobsText({ model, planDir: k.planDir, repository: k.repository, results: k.results, variants: jobs });
}
