// An ensemble against the models it runs (core src/model_repository_manager/model_repository_manager.cc,
// src/ensemble_scheduler/ensemble_utils.cc): core's dependency stage (every step
// model present, pinned versions loaded, no cycles between ensembles) and ValidateEnsembleConfig,
// which compares each step's input_map/output_map with the composing model's *completed* config:
// the one Triton runs after backend auto-fill and the ONNX Runtime backend's auto-complete. tritonc
// completes ONNX models from their signature; what it cannot know (a model whose I/O the backend
// fills in from a file it cannot read) is never blamed.
import { join } from 'node:path';
import { z } from 'zod';
import type { PathSegment, Range } from '../../../diagnostics.js';
import { UNKNOWN_COMPLETION, type CompletedConfig } from '../../../triton/completed-config.js';
import { ENSEMBLE_PLATFORM } from '../../../triton/backend-records.js';
import type { ModelConfig, ModelEnsembling_Step } from '../../../config/model-config.js';
import { defineRepositoryRule, type MessageOf, type RepositoryContext, type ModelFacts } from '../../rule.js';
import { maxBatchSize } from '../../tensors.js';
import { ownValue } from '../../../util/name-record.js';

const ENSEMBLE = ENSEMBLE_PLATFORM;

const options = z.strictObject({
  externalModels: z
    .boolean()
    .default(false)
    .describe(
      'Step models may live in another model repository (Triton started with several --model-repository): do not report models missing from this one, and skip the checks that need them',
    ),
});
type Options = z.infer<typeof options>;

/** A composing model's config as Triton runs it, and which parts of it tritonc can vouch for. */
type Completed = CompletedConfig;

const UNKNOWN: Completed = UNKNOWN_COMPLETION;

/** A tensor as one model sees it (core's TensorNode). */
interface TensorView {
  model: string;
  type: string;
  dims: number[];
  full: number[];
  /** Where it is written: the ensemble's own input or output, or a step's input_map or output_map key. */
  where: TensorWhere;
}

type StepWhere = { step: number; map: 'input_map' | 'output_map'; key: string };
type TensorWhere = { side: 'input' | 'output' } | StepWhere;
/** A tensor as a step sees it. */
type StepView = TensorView & { where: StepWhere };

const dimsText = (d: readonly number[]): string => `[${d.join(',')}]`;

/** common's CompareDimsWithWildcard: same rank, each dim equal or either -1. */
function sameWithWildcard(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((d, i) => d === -1 || b[i] === -1 || d === b[i]);
}

function view<W extends TensorWhere>(model: string, batching: boolean, type: string, dims: readonly (number | bigint)[], where: W): TensorView & { where: W } {
  const d = dims.map(Number);
  return { model, type, dims: d, full: batching ? [-1, ...d] : d, where };
}

function typeName(t: unknown): string | undefined {
  return typeof t === 'string' ? t : typeof t === 'number' ? `TYPE_${t}` : undefined;
}

const messages = {
  // Where the step model is not (one repository, any of the server's, or in two of them), each with
  // a near name when one exists.
  stepModelMissing: `step {{step}} runs model '{{model}}', which is not in the repository {{repository}}: Triton refuses the ensemble ("ensemble {{ensemble}} contains models that are not available or ambiguous: {{missing}}"); add the model directory '{{model}}' or fix the name`,
  stepModelMissingNear: `step {{step}} runs model '{{model}}', which is not in the repository {{repository}}: Triton refuses the ensemble ("ensemble {{ensemble}} contains models that are not available or ambiguous: {{missing}}"); add the model directory '{{model}}' or fix the name (did you mean '{{near}}'?)`,
  stepModelMissingAnyRepository: `step {{step}} runs model '{{model}}', which is not in any of the server's repositories ({{repositories}}): Triton refuses the ensemble ("ensemble {{ensemble}} contains models that are not available or ambiguous: {{missing}}"); add the model directory '{{model}}' or fix the name`,
  stepModelMissingAnyRepositoryNear: `step {{step}} runs model '{{model}}', which is not in any of the server's repositories ({{repositories}}): Triton refuses the ensemble ("ensemble {{ensemble}} contains models that are not available or ambiguous: {{missing}}"); add the model directory '{{model}}' or fix the name (did you mean '{{near}}'?)`,
  stepModelAmbiguous: `step {{step}} runs model '{{model}}', which is not unique across the server's repositories ({{repositories}}), so Triton loads it from none: Triton refuses the ensemble ("ensemble {{ensemble}} contains models that are not available or ambiguous: {{missing}}"); add the model directory '{{model}}' or fix the name`,
  stepModelAmbiguousNear: `step {{step}} runs model '{{model}}', which is not unique across the server's repositories ({{repositories}}), so Triton loads it from none: Triton refuses the ensemble ("ensemble {{ensemble}} contains models that are not available or ambiguous: {{missing}}"); add the model directory '{{model}}' or fix the name (did you mean '{{near}}'?)`,
  circularDependency: `step {{step}} runs '{{model}}', which leads back to this ensemble: Triton refuses both ("circular dependency between ensembles: {{ensemble}} -> ... -> {{last}} -> {{ensemble}}"); an ensemble cannot run itself, directly or through another ensemble`,
  stepVersionUnsetZero: `step {{step}} does not set model_version, which proto3 reads as 0, not -1: Triton will require version 0 of '{{name}}' ("ensemble '{{ensemble}}' depends on '{{name}}' whose required version 0 is not loaded." unless a version directory 0 exists); set model_version: -1 to run the latest version`,
  stepModelNoVersion: `step {{step}} runs '{{name}}', but Triton loads no version of it (it has no numeric version directory): Triton refuses the ensemble ("ensemble '{{ensemble}}' depends on '{{name}}' which has no loaded version."); add {{name}}/1/ with the model file`,
  stepModelNoVersionSelected: `step {{step}} runs '{{name}}', but Triton loads no version of it (its version_policy selects none of its version directories): Triton refuses the ensemble ("ensemble '{{ensemble}}' depends on '{{name}}' which has no loaded version."); add {{name}}/1/ with the model file`,
  stepVersionNotLoaded: `step {{step}} requires version {{required}} of '{{name}}', which Triton does not load (loaded versions: {{loaded}}): Triton refuses the ensemble ("ensemble '{{ensemble}}' depends on '{{name}}' whose required version {{required}} is not loaded."); set model_version: -1 (the latest loaded) or one of {{loaded}}, or add version directory {{name}}/{{required}}/ and make {{name}}'s version_policy select it`,
  stepVersionUnset: `step {{step}} requires version 0 of '{{name}}', which Triton does not load (loaded versions: {{loaded}}): Triton refuses the ensemble ("ensemble '{{ensemble}}' depends on '{{name}}' whose required version 0 is not loaded."); model_version is not set, and proto3 reads that as 0, not -1 (latest): set model_version: -1`,
  // The first side of a tensor is an earlier step's map, or the ensemble's own input or output.
  tensorDataTypeMismatch: `ensemble tensor '{{tensor}}' is {{seenType}} for '{{seenKey}}' of '{{seenModel}}' (step {{seenStep}}'s {{seenMap}}) but {{firstType}} for '{{firstKey}}' of '{{firstModel}}' (step {{firstStep}}'s {{firstMap}}): Triton refuses the ensemble ("in ensemble {{ensemble}}, ensemble tensor {{tensor}}: inconsistent data type: {{firstType}} is inferred from model {{firstModel}} while {{seenType}} is inferred from model {{seenModel}}"); make both sides the same data type (change one config, or add a step that casts)`,
  tensorDataTypeMismatchInput: `ensemble tensor '{{tensor}}' is {{seenType}} for '{{seenKey}}' of '{{seenModel}}' (step {{seenStep}}'s {{seenMap}}) but {{firstType}} for the ensemble's input '{{tensor}}': Triton refuses the ensemble ("in ensemble {{ensemble}}, ensemble tensor {{tensor}}: inconsistent data type: {{firstType}} is inferred from model {{firstModel}} while {{seenType}} is inferred from model {{seenModel}}"); make both sides the same data type (change one config, or add a step that casts)`,
  tensorDataTypeMismatchOutput: `ensemble tensor '{{tensor}}' is {{seenType}} for '{{seenKey}}' of '{{seenModel}}' (step {{seenStep}}'s {{seenMap}}) but {{firstType}} for the ensemble's output '{{tensor}}': Triton refuses the ensemble ("in ensemble {{ensemble}}, ensemble tensor {{tensor}}: inconsistent data type: {{firstType}} is inferred from model {{firstModel}} while {{seenType}} is inferred from model {{seenModel}}"); make both sides the same data type (change one config, or add a step that casts)`,
  tensorShapeMismatch: `ensemble tensor '{{tensor}}' has shape {{seenShape}} for '{{seenKey}}' of '{{seenModel}}' (step {{seenStep}}'s {{seenMap}}) but {{firstShape}} for '{{firstKey}}' of '{{firstModel}}' (step {{firstStep}}'s {{firstMap}}) (full shapes: the batch axis -1 first when max_batch_size > 0): Triton refuses the ensemble ("in ensemble {{ensemble}}, ensemble tensor {{tensor}}: inconsistent shape: {{firstShape}} is inferred from model {{firstModel}} while {{seenShape}} is inferred from model {{seenModel}}"); make the dims agree (-1 matches any size), or reshape between the steps`,
  tensorShapeMismatchInput: `ensemble tensor '{{tensor}}' has shape {{seenShape}} for '{{seenKey}}' of '{{seenModel}}' (step {{seenStep}}'s {{seenMap}}) but {{firstShape}} for the ensemble's input '{{tensor}}' (full shapes: the batch axis -1 first when max_batch_size > 0): Triton refuses the ensemble ("in ensemble {{ensemble}}, ensemble tensor {{tensor}}: inconsistent shape: {{firstShape}} is inferred from model {{firstModel}} while {{seenShape}} is inferred from model {{seenModel}}"); make the dims agree (-1 matches any size), or reshape between the steps`,
  tensorShapeMismatchOutput: `ensemble tensor '{{tensor}}' has shape {{seenShape}} for '{{seenKey}}' of '{{seenModel}}' (step {{seenStep}}'s {{seenMap}}) but {{firstShape}} for the ensemble's output '{{tensor}}' (full shapes: the batch axis -1 first when max_batch_size > 0): Triton refuses the ensemble ("in ensemble {{ensemble}}, ensemble tensor {{tensor}}: inconsistent shape: {{firstShape}} is inferred from model {{firstModel}} while {{seenShape}} is inferred from model {{seenModel}}"); make the dims agree (-1 matches any size), or reshape between the steps`,
  maxBatchSizeAboveStep: `max_batch_size {{ensembleMbs}} is larger than that of step {{step}}'s model '{{model}}' (max_batch_size {{depMbs}}): Triton refuses the ensemble ("ensemble {{ensemble}} allows maximum batch size {{ensembleMbs}}, but it contains model {{model}} which only allows maximum batch size to be {{depMbs}}"); set the ensemble's max_batch_size to {{depMbs}} or less, or raise '{{model}}''s`,
  inputMapUnknownInput: `'{{key}}' is not an input of '{{model}}' (its inputs: {{inputs}}): Triton refuses the ensemble ("in ensemble {{ensemble}}, ensemble tensor {{tensor}} is mapping to non-existing input {{key}} in model {{model}}"); use one of its input names as the key`,
  inputMapModelHasNoInputs: `'{{key}}' is not an input of '{{model}}' (it has no inputs): Triton refuses the ensemble ("in ensemble {{ensemble}}, ensemble tensor {{tensor}} is mapping to non-existing input {{key}} in model {{model}}"); use one of its input names as the key`,
  stepInputUnmapped: `step {{step}} does not feed input '{{name}}' of '{{model}}': Triton refuses the ensemble ("in ensemble {{ensemble}}, input {{name}} in model {{model}} is not mapped to any ensemble tensors"); add input_map { key: "{{name}}" value: "<ensemble tensor>" }`,
  outputMapUnknownOutput: `'{{key}}' is not an output of '{{model}}' (its outputs: {{outputs}}): Triton refuses the ensemble ("in ensemble {{ensemble}}, ensemble tensor {{tensor}} is mapped from non-existing output {{key}} in model {{model}}"); use one of its output names as the key`,
  outputMapModelHasNoOutputs: `'{{key}}' is not an output of '{{model}}' (it has no outputs): Triton refuses the ensemble ("in ensemble {{ensemble}}, ensemble tensor {{tensor}} is mapped from non-existing output {{key}} in model {{model}}"); use one of its output names as the key`,
  mixedDecoupledBranches: `ensemble tensor '{{tensor}}' would combine responses that come from different decoupled models (each decoupled model may send any number of responses): Triton refuses the ensemble ("in ensemble {{ensemble}}, step of model '{{model}}' receives inputs originated from different decoupled models"); feed each step from at most one decoupled branch`,
  mixedDecoupledOutputs: `the ensemble's outputs would combine responses that come from different decoupled models (each decoupled model may send any number of responses): Triton refuses the ensemble ("in ensemble {{ensemble}}, step of model '{{model}}' receives inputs originated from different decoupled models"); feed each step from at most one decoupled branch`,
  decoupledFalseOverwritten:
    'decoupled: false is overwritten (decoupled step models: {{models}}): Triton serves this ensemble as decoupled and clients must use the streaming API; set decoupled: true to say so',
  decoupledTrueOverwritten:
    'decoupled: true is overwritten: no step of this ensemble is decoupled, so Triton serves it as a regular (one response per request) model; remove the setting or set it to false',
} as const;

type Ctx = RepositoryContext<Options, typeof messages>;

export const ensembleModels = defineRepositoryRule<Options, typeof messages>({
  meta: {
    id: 'ensemble-models',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: false,
    description:
      'Ensemble steps against the composing models: present, versions loaded, no cycles, batch sizes, mapped inputs/outputs, data types and shapes, decoupled branches',
    messages,
    prevents: [
      'ensemble <name> contains models that are not available or ambiguous: <m1>, <m2>',
      "ensemble '<name>' depends on '<m>' which has no loaded version.",
      "ensemble '<name>' depends on '<m>' whose required version <v> is not loaded.",
      'circular dependency between ensembles: <a> -> ... -> <b> -> <a>',
      'ensemble <name> allows maximum batch size <E>, but it contains model <m> which only allows maximum batch size to be <M>',
      'in ensemble <name>, ensemble tensor <t> is mapping to non-existing input <k> in model <m>',
      'in ensemble <name>, input <k> in model <m> is not mapped to any ensemble tensors',
      'in ensemble <name>, ensemble tensor <t> is mapped from non-existing output <k> in model <m>',
      'in ensemble <name>, ensemble tensor <t>: inconsistent data type: <TYPE_A> is inferred from model <x> while <TYPE_B> is inferred from model <y>',
      'in ensemble <name>, ensemble tensor <t>: inconsistent shape: <full_dims_a> is inferred from model <x> while <full_dims_b> is inferred from model <y>',
      "in ensemble <name>, step of model '<m>' receives inputs originated from different decoupled models",
    ],
    options,
  },
  check(ctx) {
    new EnsembleCheck(ctx).run();
  },
});

class EnsembleCheck {
  private readonly byName = new Map<string, ModelFacts>();
  private readonly ambiguous = new Set<string>();
  private readonly decoupledMemo = new Map<ModelFacts, boolean | undefined>();

  /** Step models may be elsewhere (the options say so): a missing one is then not reported. */
  private readonly external: boolean;

  constructor(private readonly ctx: Ctx) {
    // A name in two repositories of the server is loaded from neither ("not unique across all model repositories").
    for (const m of ctx.models) {
      if (this.byName.has(m.name)) this.ambiguous.add(m.name);
      this.byName.set(m.name, m);
    }
    for (const name of this.ambiguous) this.byName.delete(name);
    this.external = ctx.options.externalModels;
  }

  run(): void {
    for (const m of this.ctx.models) {
      if (!this.ctx.isTarget(m) || !m.config || !isEnsemble(m.config)) continue;
      this.checkEnsemble(m, m.config);
    }
  }

  private report(
    m: ModelFacts,
    path: PathSegment[],
    message: MessageOf<typeof messages>,
    opts: { severity?: 'error' | 'warning' | 'info'; key?: boolean } = {},
  ): void {
    const range: Range | undefined = opts.key ? m.doc?.locate(path)?.name : undefined;
    this.ctx.report(m, { path, ...(range ? { range } : {}), ...message, ...(opts.severity ? { severity: opts.severity } : {}) });
  }

  private checkEnsemble(m: ModelFacts, config: ModelConfig): void {
    const steps = config.ensemble_scheduling?.step ?? [];
    const ensemble = m.name;
    const stepPath = (i: number, ...rest: PathSegment[]): PathSegment[] => ['ensemble_scheduling', 'step', i, ...rest];

    // 1. Every step model must be in the repository (ConnectDependencyGraph).
    const missing = [...new Set(steps.map((s) => s.model_name ?? '').filter((n) => n && !this.present(n)))].sort();
    steps.forEach((s, i) => {
      if (this.external) return;
      if (!s.model_name || !missing.includes(s.model_name)) return;
      this.report(m, stepPath(i, 'model_name'), this.missingMessage(s.model_name, { step: i, model: s.model_name, ensemble, missing: missing.join(', ') }));
    });

    // 2. Cycles between ensembles (CircularDependencyCheck).
    const cycle = this.cycleFrom(m);
    if (cycle) {
      const { step, last } = cycle;
      this.report(m, stepPath(step, 'model_name'), { messageId: 'circularDependency', data: { step, model: steps[step]!.model_name ?? '', ensemble, last } });
      return;
    }

    // 3. Versions: a pinned model_version must be one Triton loads (CheckNode).
    const ownVersions = m.versions(config);
    steps.forEach((s, i) => {
      const dep = s.model_name ? this.byName.get(s.model_name) : undefined;
      if (!dep || !s.model_name) return;
      this.checkVersion(m, s, i, dep, ownVersions.length > 0);
    });

    // 4. ValidateEnsembleConfig, against the completed configs (all of them: Triton gets that far only
    // when every step model loaded).
    if (missing.length && !this.external) return;
    this.checkMapping(m, config, steps);
  }

  private present(name: string): boolean {
    return this.byName.has(name) || (!this.ambiguous.has(name) && this.ctx.repositories.some((r) => this.ctx.files.kind(join(r, name)) === 'dir'));
  }

  /** A missing step model: where it is not (the repository, the server's repositories, or not unique across them), and a near name. */
  private missingMessage(name: string, data: { step: number; model: string; ensemble: string; missing: string }): MessageOf<typeof messages> {
    const near = this.suggest(name);
    const repositories = this.ctx.repositories.join(', ');
    const [only, ...more] = this.ctx.repositories;
    if (this.ambiguous.has(name)) {
      return near
        ? { messageId: 'stepModelAmbiguousNear', data: { ...data, repositories, near } }
        : { messageId: 'stepModelAmbiguous', data: { ...data, repositories } };
    }
    if (more.length) {
      return near
        ? { messageId: 'stepModelMissingAnyRepositoryNear', data: { ...data, repositories, near } }
        : { messageId: 'stepModelMissingAnyRepository', data: { ...data, repositories } };
    }
    const repository = only ?? '';
    return near ? { messageId: 'stepModelMissingNear', data: { ...data, repository, near } } : { messageId: 'stepModelMissing', data: { ...data, repository } };
  }

  private suggest(name: string): string | undefined {
    const lower = name.toLowerCase();
    return [...this.byName.keys()].find((n) => n.toLowerCase() === lower || n.replace(/[-_]/g, '') === name.replace(/[-_]/g, ''));
  }

  /** The first ensemble path from `start` back to itself, in step order (Triton walks upstream). */
  private cycleFrom(start: ModelFacts): { step: number; last: string } | undefined {
    const steps = start.config?.ensemble_scheduling?.step ?? [];
    for (let i = 0; i < steps.length; i++) {
      const first = this.byName.get(steps[i]!.model_name ?? '');
      if (!first) continue;
      if (first === start) return { step: i, last: start.name };
      const last = this.reaches(first, start, new Set());
      if (last) return { step: i, last };
    }
    return undefined;
  }

  /** The model on a path from `from` whose step runs `target`, if any. */
  private reaches(from: ModelFacts, target: ModelFacts, seen: Set<ModelFacts>): string | undefined {
    if (seen.has(from) || !isEnsemble(from.config)) return undefined;
    seen.add(from);
    for (const s of from.config!.ensemble_scheduling?.step ?? []) {
      const next = this.byName.get(s.model_name ?? '');
      if (!next) continue;
      if (next === target) return from.name;
      const found = this.reaches(next, target, seen);
      if (found) return found;
    }
    return undefined;
  }

  private checkVersion(m: ModelFacts, s: ModelEnsembling_Step, i: number, dep: ModelFacts, layoutPresent: boolean): void {
    const ensemble = m.name;
    const written = s.model_version !== undefined;
    // proto3: an omitted model_version is 0, and only -1 means "latest".
    const required = Number(s.model_version ?? 0);
    const path: PathSegment[] = ['ensemble_scheduling', 'step', i, written ? 'model_version' : 'model_name'];
    if (dep.configFile && !dep.config) return; // its own syntax errors are reported on it
    const scan = dep.layout();
    const loaded = dep.versions().map((v) => v.version!);
    if (!loaded.length) {
      if (dep.filesElsewhere() || (!scan.versionDirs.some((v) => v.version !== undefined) && !layoutPresent)) {
        // Version directories are not here to judge (provisioned elsewhere, --configs-only, or kept
        // out of the checkout): only the proto3 default can still be called out.
        if (!written) {
          this.report(m, path, { messageId: 'stepVersionUnsetZero', data: { step: i, name: dep.name, ensemble } }, { severity: 'warning' });
        }
        return;
      }
      const selected = scan.versionDirs.some((v) => v.version !== undefined);
      this.report(m, ['ensemble_scheduling', 'step', i, 'model_name'], {
        messageId: selected ? 'stepModelNoVersionSelected' : 'stepModelNoVersion',
        data: { step: i, name: dep.name, ensemble },
      });
      return;
    }
    if (required === -1 || loaded.includes(required)) return;
    this.report(m, path, {
      messageId: written ? 'stepVersionNotLoaded' : 'stepVersionUnset',
      data: { step: i, required, name: dep.name, loaded: loaded.join(', '), ensemble },
    });
  }

  // ---- completed configs ------------------------------------------------------------------------

  private complete(dep: ModelFacts): Completed {
    return dep.completed();
  }

  /** Whether a model's responses are decoupled; an ensemble is iff any of its steps is (Triton overwrites it). */
  private isDecoupled(dep: ModelFacts): boolean | undefined {
    if (this.decoupledMemo.has(dep)) return this.decoupledMemo.get(dep);
    this.decoupledMemo.set(dep, undefined); // cycle guard
    let result: boolean | undefined;
    const c = this.complete(dep);
    if (!c.decoupled) result = undefined;
    else if (c.config.platform === ENSEMBLE) {
      result = false;
      for (const s of c.config.ensemble_scheduling?.step ?? []) {
        const sub = this.byName.get(s.model_name ?? '');
        const d = sub ? this.isDecoupled(sub) : undefined;
        if (d === undefined) {
          result = undefined;
          break;
        }
        if (d) result = true;
      }
    } else result = c.config.model_transaction_policy?.decoupled === true;
    this.decoupledMemo.set(dep, result);
    return result;
  }

  // ---- ValidateEnsembleConfig ---------------------------------------------------------------------

  private checkMapping(m: ModelFacts, config: ModelConfig, steps: ModelEnsembling_Step[]): void {
    const ensemble = m.name;
    const batching = maxBatchSize(config) > 0;
    const tensors = new Map<string, TensorView>();
    for (const side of ['input', 'output'] as const) {
      for (const io of config[side] ?? []) {
        const type = typeName(io.data_type);
        if (!io.name || !type) continue;
        const dims = io.reshape ? (io.reshape.shape ?? []) : (io.dims ?? []);
        if (!tensors.has(io.name)) tensors.set(io.name, view(ensemble, batching, type, dims, { side }));
      }
    }

    let mappingOk = true;
    const compare = (t: string, seen: StepView, path: PathSegment[]): void => {
      const first = tensors.get(t);
      if (!first) {
        tensors.set(t, seen);
        return;
      }
      // Where each side is written: a step's map key, or (first only) the ensemble's own input or output.
      const seenSide = {
        tensor: t,
        ensemble,
        seenModel: seen.model,
        seenStep: seen.where.step,
        seenMap: seen.where.map,
        seenKey: seen.where.key,
        firstModel: first.model,
      };
      const firstStep = 'step' in first.where ? { firstStep: first.where.step, firstMap: first.where.map, firstKey: first.where.key } : undefined;
      const own = 'side' in first.where ? first.where.side : undefined;
      if (first.type !== seen.type) {
        mappingOk = false;
        const types = { ...seenSide, seenType: seen.type, firstType: first.type };
        this.report(
          m,
          path,
          firstStep
            ? { messageId: 'tensorDataTypeMismatch', data: { ...types, ...firstStep } }
            : { messageId: own === 'input' ? 'tensorDataTypeMismatchInput' : 'tensorDataTypeMismatchOutput', data: types },
        );
        return;
      }
      if (!sameWithWildcard(first.dims, seen.dims) && !sameWithWildcard(first.full, seen.full)) {
        mappingOk = false;
        const shapes = { ...seenSide, seenShape: dimsText(seen.full), firstShape: dimsText(first.full) };
        this.report(
          m,
          path,
          firstStep
            ? { messageId: 'tensorShapeMismatch', data: { ...shapes, ...firstStep } }
            : { messageId: own === 'input' ? 'tensorShapeMismatchInput' : 'tensorShapeMismatchOutput', data: shapes },
        );
      }
    };

    const known: boolean[] = [];
    steps.forEach((s, i) => {
      const at: PathSegment[] = ['ensemble_scheduling', 'step', i];
      const dep = this.byName.get(s.model_name ?? '');
      const c = dep ? this.complete(dep) : UNKNOWN;
      known.push(c.inputs && c.outputs);
      const model = s.model_name ?? '';
      const cfg = c.config;
      const stepBatching = maxBatchSize(cfg) > 0;
      const ensembleMbs = maxBatchSize(config);
      const depMbs = maxBatchSize(cfg);

      if (c.maxBatchSize && depMbs !== 0 && depMbs < ensembleMbs) {
        mappingOk = false;
        this.report(m, ['max_batch_size'], { messageId: 'maxBatchSizeAboveStep', data: { ensembleMbs, step: i, model, depMbs, ensemble } });
      }

      const inputMap = s.input_map ?? {};
      if (c.inputs) {
        const names = new Set((cfg.input ?? []).map((x) => x.name ?? ''));
        for (const [key, t] of Object.entries(inputMap)) {
          if (names.has(key)) continue;
          mappingOk = false;
          const list = [...names].map((n) => `'${n}'`).join(', ');
          this.report(
            m,
            [...at, 'input_map', key],
            list
              ? { messageId: 'inputMapUnknownInput', data: { key, model, inputs: list, ensemble, tensor: t } }
              : { messageId: 'inputMapModelHasNoInputs', data: { key, model, ensemble, tensor: t } },
            { key: true },
          );
        }
        for (const input of cfg.input ?? []) {
          const name = input.name ?? '';
          const t = ownValue(inputMap, name);
          if (t === undefined) {
            if (input.optional) continue;
            mappingOk = false;
            this.report(m, [...at, 'model_name'], { messageId: 'stepInputUnmapped', data: { step: i, name, model, ensemble } });
            continue;
          }
          const type = typeName(input.data_type);
          if (type) compare(t, view(model, stepBatching, type, input.dims ?? [], { step: i, map: 'input_map', key: name }), [...at, 'input_map', name]);
        }
      }

      const outputMap = s.output_map ?? {};
      if (c.outputs) {
        const names = new Set((cfg.output ?? []).map((x) => x.name ?? ''));
        for (const [key, t] of Object.entries(outputMap)) {
          if (names.has(key)) continue;
          mappingOk = false;
          const list = [...names].map((n) => `'${n}'`).join(', ');
          this.report(
            m,
            [...at, 'output_map', key],
            list
              ? { messageId: 'outputMapUnknownOutput', data: { key, model, outputs: list, ensemble, tensor: t } }
              : { messageId: 'outputMapModelHasNoOutputs', data: { key, model, ensemble, tensor: t } },
            { key: true },
          );
        }
        for (const [key, t] of Object.entries(outputMap)) {
          const output = (cfg.output ?? []).find((o) => o.name === key);
          const type = typeName(output?.data_type);
          if (!output || !type) continue;
          compare(t, view(model, stepBatching, type, output.dims ?? [], { step: i, map: 'output_map', key }), [...at, 'output_map', key]);
        }
      }
    });

    if (mappingOk && known.every(Boolean)) this.checkDecoupled(m, config, steps);
  }

  /** The decoupled walk of ValidateEnsembleConfig, and what it does to the ensemble's own flag. */
  private checkDecoupled(m: ModelFacts, config: ModelConfig, steps: ModelEnsembling_Step[]): void {
    const ensemble = m.name;
    const flags = steps.map((s) => {
      const dep = this.byName.get(s.model_name ?? '');
      return dep ? this.isDecoupled(dep) : undefined;
    });
    if (flags.some((f) => f === undefined)) return;

    interface Node {
      name: string;
      model: string;
      decoupled: boolean;
      label: number;
      visited: boolean;
      prev: Node[];
      next: Node[];
      sibling?: { label: number; visited: boolean };
      /** Where the tensor is written, for the report. */
      path: PathSegment[];
    }
    const nodes = new Map<string, Node>();
    const get = (name: string, model: string, path: PathSegment[]): Node => {
      let n = nodes.get(name);
      if (!n) nodes.set(name, (n = { name, model, decoupled: false, label: 0, visited: false, prev: [], next: [], path }));
      return n;
    };
    for (const io of config.input ?? []) if (io.name) get(io.name, ensemble, ['input']);
    const sink: Node = { name: '', model: ensemble, decoupled: false, label: 0, visited: false, prev: [], next: [], path: ['output'] };
    for (const io of config.output ?? []) {
      if (!io.name) continue;
      const n = get(io.name, ensemble, ['output']);
      sink.prev.push(n);
      n.next.push(sink);
    }
    // Registration order follows ValidateTensorMapping: a step's inputs, then its outputs.
    steps.forEach((s, i) => {
      const model = s.model_name ?? '';
      for (const [key, t] of Object.entries(s.input_map ?? {})) get(t, model, ['ensemble_scheduling', 'step', i, 'input_map', key]);
      const sibling = { label: 0, visited: false };
      for (const [key, t] of Object.entries(s.output_map ?? {})) {
        const n = get(t, model, ['ensemble_scheduling', 'step', i, 'output_map', key]);
        n.path = ['ensemble_scheduling', 'step', i, 'output_map', key];
        n.sibling = sibling;
      }
      for (const t of Object.values(s.output_map ?? {})) {
        const n = nodes.get(t)!;
        n.decoupled = flags[i]!;
        for (const src of Object.values(s.input_map ?? {})) {
          const p = nodes.get(src)!;
          n.prev.push(p);
          p.next.push(n);
        }
      }
    });

    let label = 0;
    const queue: Node[] = [];
    for (const io of config.input ?? []) {
      const n = nodes.get(io.name ?? '');
      if (!n) continue;
      n.visited = true;
      queue.push(n);
    }
    for (let k = 0; k < queue.length; k++) {
      for (const next of queue[k]!.next) {
        if (next.visited || !next.prev.every((p) => p.visited)) continue;
        const prevLabel = next.prev[0]!.label;
        if (next.prev.some((p) => p.label !== prevLabel)) {
          const path: PathSegment[] = next === sink ? ['ensemble_scheduling'] : next.path;
          this.report(
            m,
            path,
            next === sink
              ? { messageId: 'mixedDecoupledOutputs', data: { ensemble, model: next.model } }
              : { messageId: 'mixedDecoupledBranches', data: { tensor: next.name, ensemble, model: next.model } },
            next === sink ? { key: true } : {},
          );
          return;
        }
        if (next.sibling) {
          if (next.sibling.visited) next.label = next.sibling.label;
          else {
            next.label = next.decoupled ? ++label : prevLabel;
            next.sibling.label = next.label;
            next.sibling.visited = true;
          }
        } else next.label = next.decoupled ? ++label : prevLabel;
        next.visited = true;
        queue.push(next);
      }
    }

    // Triton overwrites the ensemble's decoupled flag with what its steps make it.
    const decoupled = label !== 0;
    const said = config.model_transaction_policy?.decoupled;
    if (said !== undefined && said !== decoupled) {
      const which = steps.filter((_, i) => flags[i]).map((s) => `'${s.model_name}'`);
      this.report(
        m,
        ['model_transaction_policy', 'decoupled'],
        decoupled ? { messageId: 'decoupledFalseOverwritten', data: { models: which.join(', ') } } : { messageId: 'decoupledTrueOverwritten' },
        { severity: 'warning' },
      );
    }
  }
}

function isEnsemble(config: ModelConfig | undefined): boolean {
  return config?.platform === ENSEMBLE && config.ensemble_scheduling !== undefined;
}
