// The part of an ensemble Triton checks from its own config alone (core src/model_config_utils.cc
// ValidateEnsembleSchedulingConfig): ensemble_scheduling and platform "ensemble" go together, an
// ensemble has no instance groups, optimization or warmup, every step names a model and maps inputs
// and outputs, each ensemble tensor is written once, and the data flows from the ensemble's inputs
// through the steps to every output with nothing left dangling. Triton stops at the first problem;
// the rule reports each one at its token, skipping those that only follow from another.
import type { PathSegment, Range } from '../../../diagnostics.js';
import type { ConfigDocument } from '../../../config/document.js';
import type { ModelConfig } from '../../../config/model-config.js';
import { defineModelRule } from '../../rule.js';
import { append } from '../../../util/arrays.js';
import { ENSEMBLE_PLATFORM } from '../../../triton/backend-records.js';

const ENSEMBLE = ENSEMBLE_PLATFORM;

/** The field name's token for a message or list field (`instance_group`), else the value's. */
export function fieldNameRange(doc: ConfigDocument, path: readonly PathSegment[]): Range {
  return doc.locate(path)?.name ?? doc.rangeOf(path);
}

/** The first character of a block (its `{`): where to point when something is missing inside it. */
function blockStart(doc: ConfigDocument, path: readonly PathSegment[]): Range {
  const r = doc.rangeOf(path);
  return { start: r.start, end: { line: r.start.line, column: r.start.column + 1, offset: r.start.offset + 1 } };
}

interface Tensor {
  name: string;
  /** Written by a step (appears as an output_map value). */
  written: boolean;
  ready: boolean;
  prev: Tensor[];
  next: Tensor[];
  /** Where it first appears: an output_map value if written, else an input_map value. */
  path: PathSegment[];
}

export const ensembleConfig = defineModelRule({
  meta: {
    id: 'ensemble-config',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: false,
    description: 'Ensemble wiring Triton checks from the config alone: platform, steps, maps, and the data flow from inputs to outputs',
    prevents: [
      "ensemble scheduling cannot be set for model '<name>' whose platform is not ensemble",
      'ensemble scheduling must be set for ensemble <name> whose platform is ensemble',
      "instance group should not be specified for ensemble '<name>'",
      "optimization should not be specified for ensemble '<name>'",
      "model_warmup can not be specified for ensemble '<name>'",
      "must specify 'step' for ensemble '<name>'",
      "must specify 'model_name' in step <i> of ensemble '<name>'",
      "must specify 'input_map' in step <i> of ensemble '<name>'",
      "must specify 'output_map' in step <i> of ensemble '<name>'",
      "ensemble tensor '<t>' can appear in an output map only once for ensemble '<name>' step <i>",
      "ensemble input '<in>' for ensemble <name>' is not used",
      "ensemble output '<out>' for ensemble <name>' is not used",
      "output '<out>' for ensemble '<name>' is not written",
      "output '<out>' for ensemble '<name>' is not written: at least one of its depending tensors, '<t>', is not connected",
      "ensemble tensor '<t>' is unused in ensemble '<name>'",
    ],
    messages: {
      tensorUnused:
        "ensemble tensor '{{tensor}}' is written but no step reads it and it is not an ensemble output: Triton refuses the ensemble (\"ensemble tensor '{{tensor}}' is unused in ensemble '{{ensemble}}'\"); read it in a step's input_map, add it to the ensemble's output, or drop this output_map entry",
      tensorNeverComputed:
        "ensemble tensor '{{tensor}}' is never computed: the step that writes it waits for '{{waitsFor}}', which never gets a value: Triton refuses the ensemble (\"ensemble tensor '{{tensor}}' is unused in ensemble '{{ensemble}}'\"); connect that step's inputs to the ensemble inputs or to other steps' outputs, or remove the step",
      tensorNeverGetsValue:
        "ensemble tensor '{{tensor}}' never gets a value: it is read here but is neither an ensemble input nor written by any step: Triton refuses the ensemble (\"ensemble tensor '{{tensor}}' is unused in ensemble '{{ensemble}}'\"); map it from an ensemble input or another step's output, or remove the mapping",
      schedulingMissing:
        'platform "ensemble" without ensemble_scheduling: Triton refuses the model ("ensemble scheduling must be set for ensemble {{name}} whose platform is ensemble"); add ensemble_scheduling { step [ ... ] } with the models to run, or set the platform or backend of the model this really is',
      schedulingWithoutPlatform: `ensemble_scheduling is set but platform is not set: Triton refuses the model ("ensemble scheduling cannot be set for model '{{name}}' whose platform is not ensemble"); set platform: "ensemble" (and no backend), or remove ensemble_scheduling`,
      schedulingOnOtherPlatform: `ensemble_scheduling is set but platform is "{{platform}}": Triton refuses the model ("ensemble scheduling cannot be set for model '{{name}}' whose platform is not ensemble"); set platform: "ensemble" (and no backend), or remove ensemble_scheduling`,
      instanceGroupInEnsemble: `instance_group in an ensemble: Triton refuses the model ("instance group should not be specified for ensemble '{{name}}'"); an ensemble runs no instances of its own; remove instance_group (set instance groups on the composing models)`,
      optimizationInEnsemble: `optimization in an ensemble: Triton refuses the model ("optimization should not be specified for ensemble '{{name}}'"); remove optimization (set it on the composing models)`,
      warmupInEnsemble: `model_warmup in an ensemble: Triton refuses the model ("model_warmup can not be specified for ensemble '{{name}}'"); remove model_warmup (warm up the composing models instead)`,
      noSteps: `ensemble_scheduling has no step: Triton refuses the model ("must specify 'step' for ensemble '{{name}}'"); add step [ { model_name: "...", model_version: -1, input_map { ... }, output_map { ... } } ]`,
      stepWithoutModel: `step {{step}} names no model: Triton refuses the ensemble ("must specify 'model_name' in step {{step}} of ensemble '{{name}}'"); add model_name: "<model directory name>"`,
      stepWithoutInputMap: `step {{step}} (model '{{model}}') has no input_map: Triton refuses the ensemble ("must specify 'input_map' in step {{step}} of ensemble '{{name}}'"); say which model input reads which ensemble tensor (input_map { key: "<model input>" value: "<ensemble tensor>" })`,
      stepWithoutOutputMap: `step {{step}} (model '{{model}}') has no output_map: Triton refuses the ensemble ("must specify 'output_map' in step {{step}} of ensemble '{{name}}'"); say which model output writes which ensemble tensor (output_map { key: "<model output>" value: "<ensemble tensor>" })`,
      unnamedStepWithoutInputMap: `step {{step}} has no input_map: Triton refuses the ensemble ("must specify 'input_map' in step {{step}} of ensemble '{{name}}'"); say which model input reads which ensemble tensor (input_map { key: "<model input>" value: "<ensemble tensor>" })`,
      unnamedStepWithoutOutputMap: `step {{step}} has no output_map: Triton refuses the ensemble ("must specify 'output_map' in step {{step}} of ensemble '{{name}}'"); say which model output writes which ensemble tensor (output_map { key: "<model output>" value: "<ensemble tensor>" })`,
      tensorWrittenTwice: `ensemble tensor '{{tensor}}' is already written by step {{firstStep}} (output '{{firstOutput}}'): Triton refuses the ensemble ("ensemble tensor '{{tensor}}' can appear in an output map only once for ensemble '{{name}}' step {{step}}"); give output '{{key}}' of step {{step}} its own tensor name`,
      inputUnused: `ensemble input '{{name}}' is not read by any step: Triton refuses the ensemble ("ensemble input '{{name}}' for ensemble {{ensemble}}' is not used"); map it in a step's input_map (value: "{{name}}"), or remove the input`,
      outputNotWritten: `ensemble output '{{out}}' is not written by any step: Triton refuses the ensemble ("ensemble output '{{out}}' for ensemble {{name}}' is not used"); map a step's output to it (output_map { key: "<model output>" value: "{{out}}" }), or remove the output`,
      outputWaitsForUnconnected: `ensemble output '{{out}}' is never computed: Triton refuses the ensemble ("output '{{out}}' for ensemble '{{name}}' is not written: at least one of its depending tensors, '{{tensor}}', is not connected"); '{{tensor}}' is read by a step but neither an ensemble input nor written by any step, so '{{out}}' can never be computed; map '{{tensor}}' from an ensemble input or a step's output_map`,
      outputNeverComputed: `ensemble output '{{out}}' is never computed: Triton refuses the ensemble ("output '{{out}}' for ensemble '{{name}}' is not written"); the step that writes it never gets all of its inputs; connect the steps that lead to '{{out}}' to the ensemble inputs`,
      outputOnlyRead: `ensemble output '{{out}}' is never computed: Triton refuses the ensemble ("output '{{out}}' for ensemble '{{name}}' is not written"); no step writes it (it only appears as an input_map value); map a step's output to it with output_map { key: "<model output>" value: "{{out}}" }`,
    },
  },
  check(ctx) {
    const config = ctx.config;
    // Core fills an empty name from the directory before validating (AutoCompleteBackendFields).
    const name = config.name || ctx.model.name;
    const platform = config.platform ?? '';
    const scheduling = config.ensemble_scheduling;

    if (!scheduling) {
      if (platform === ENSEMBLE) {
        ctx.report({
          path: ['platform'],
          messageId: 'schedulingMissing',
          data: { name },
        });
      }
      return;
    }

    if (platform !== ENSEMBLE) {
      const path: PathSegment[] = config.platform !== undefined ? ['platform'] : ['ensemble_scheduling'];
      const range = config.platform !== undefined ? undefined : fieldNameRange(ctx.doc, path);
      if (platform) ctx.report({ path, range, messageId: 'schedulingOnOtherPlatform', data: { platform, name } });
      else ctx.report({ path, range, messageId: 'schedulingWithoutPlatform', data: { name } });
      // The rest describes an ensemble; with another platform it only adds noise.
      return;
    }

    const forbidden = [
      { field: 'instance_group', messageId: 'instanceGroupInEnsemble' },
      { field: 'optimization', messageId: 'optimizationInEnsemble' },
      { field: 'model_warmup', messageId: 'warmupInEnsemble' },
    ] as const satisfies readonly { field: keyof ModelConfig; messageId: string }[];
    for (const { field, messageId } of forbidden) {
      const value = config[field];
      const present = Array.isArray(value) ? value.length > 0 : value !== undefined;
      if (!present) continue;
      ctx.report({ path: [field], range: fieldNameRange(ctx.doc, [field]), messageId, data: { field, name } });
    }

    const steps = scheduling.step ?? [];
    if (!steps.length) {
      const path: PathSegment[] = ['ensemble_scheduling'];
      ctx.report({
        path,
        range: fieldNameRange(ctx.doc, path),
        messageId: 'noSteps',
        data: { name },
      });
      return;
    }

    let structural = false;
    steps.forEach((step, i) => {
      const at: PathSegment[] = ['ensemble_scheduling', 'step', i];
      if (!step.model_name) {
        structural = true;
        ctx.report({ path: at, range: blockStart(ctx.doc, at), messageId: 'stepWithoutModel', data: { step: i, name } });
      }
      for (const map of ['input_map', 'output_map'] as const) {
        if (Object.keys(step[map] ?? {}).length) continue;
        structural = true;
        const range = blockStart(ctx.doc, at);
        if (step.model_name) {
          const messageId = map === 'input_map' ? 'stepWithoutInputMap' : 'stepWithoutOutputMap';
          ctx.report({ path: at, range, messageId, data: { step: i, model: step.model_name, map, name } });
        } else {
          const messageId = map === 'input_map' ? 'unnamedStepWithoutInputMap' : 'unnamedStepWithoutOutputMap';
          ctx.report({ path: at, range, messageId, data: { step: i, map, name } });
        }
      }
    });

    // BuildEnsembleGraph: one node per ensemble tensor, linked from a step's inputs to its outputs.
    const tensors = new Map<string, Tensor>();
    const node = (t: string, path: PathSegment[]): Tensor => {
      let n = tensors.get(t);
      if (!n) tensors.set(t, (n = { name: t, written: false, ready: false, prev: [], next: [], path }));
      return n;
    };
    steps.forEach((step, i) => {
      const at: PathSegment[] = ['ensemble_scheduling', 'step', i];
      const outputs: Tensor[] = [];
      for (const [key, t] of Object.entries(step.output_map ?? {})) {
        const path = [...at, 'output_map', key];
        const existing = tensors.get(t);
        if (existing?.written) {
          structural = true;
          ctx.report({
            path,
            messageId: 'tensorWrittenTwice',
            data: { tensor: t, firstStep: Number(existing.path[2]), firstOutput: String(existing.path[4]), name, step: i, key },
          });
          continue;
        }
        const n = existing ?? node(t, path);
        if (!n.written) {
          n.written = true;
          n.path = path;
        }
        outputs.push(n);
      }
      for (const [key, t] of Object.entries(step.input_map ?? {})) {
        const n = node(t, [...at, 'input_map', key]);
        for (const out of outputs) {
          out.prev.push(n);
          n.next.push(out);
        }
      }
    });
    // Triton validates the data flow only once every step is complete.
    if (structural) return;

    const queue: Tensor[] = [];
    (config.input ?? []).forEach((input, i) => {
      const n = tensors.get(input.name ?? '');
      if (!n) {
        ctx.report({
          path: ['input', i, 'name'],
          messageId: 'inputUnused',
          data: { name: input.name ?? '', ensemble: name },
        });
        return;
      }
      n.ready = true;
      queue.push(n);
    });
    for (let k = 0; k < queue.length; k++) {
      for (const next of queue[k]!.next) {
        if (next.ready) continue;
        if (next.prev.every((p) => p.ready)) {
          next.ready = true;
          queue.push(next);
        }
      }
    }

    const outputs = new Set<string>();
    const blamed = new Set<Tensor>();
    (config.output ?? []).forEach((output, i) => {
      const out = output.name ?? '';
      const n = tensors.get(out);
      if (!n) {
        ctx.report({
          path: ['output', i, 'name'],
          messageId: 'outputNotWritten',
          data: { out, name },
        });
        return;
      }
      outputs.add(out);
      if (n.ready) return;
      // Walk back to the first tensor that nothing feeds, as Triton does for its message.
      let last = n;
      let prev = n.prev;
      const seen = new Set<string>();
      while (prev.length) {
        const p = prev.find((x) => !x.ready && !seen.has(x.name));
        if (!p) break;
        seen.add(p.name);
        last = p;
        prev = p.prev;
      }
      for (const a of ancestors(n)) blamed.add(a);
      const at: PathSegment[] = ['output', i, 'name'];
      if (last !== n) ctx.report({ path: at, messageId: 'outputWaitsForUnconnected', data: { out, name, tensor: last.name } });
      else ctx.report({ path: at, messageId: n.written ? 'outputNeverComputed' : 'outputOnlyRead', data: { out, name } });
    });

    for (const n of tensors.values()) {
      if (outputs.has(n.name) || blamed.has(n)) continue;
      if (n.ready && n.next.length) continue;
      const stuck = n.prev.find((p) => !p.ready);
      const data = { tensor: n.name, ensemble: name };
      if (n.ready) ctx.report({ path: n.path, messageId: 'tensorUnused', data });
      else if (n.written) ctx.report({ path: n.path, messageId: 'tensorNeverComputed', data: { ...data, waitsFor: stuck?.name ?? '?' } });
      else ctx.report({ path: n.path, messageId: 'tensorNeverGetsValue', data });
    }
  },
});

function ancestors(n: Tensor): Set<Tensor> {
  const out = new Set<Tensor>();
  const stack = [...n.prev];
  while (stack.length) {
    const t = stack.pop()!;
    if (out.has(t)) continue;
    out.add(t);
    append(stack, t.prev);
  }
  return out;
}
