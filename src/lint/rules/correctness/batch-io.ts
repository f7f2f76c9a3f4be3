// batch_input / batch_output (core src/model_config_utils.cc ValidateBatchIO): each entry has exactly one
// source_input, which is a config input; a batch_input's data_type is TYPE_INT32 or TYPE_FP32; a
// batch_output's targets are config outputs, each named once.
import type { PathSegment } from '../../../diagnostics.js';
import { defineModelRule } from '../../rule.js';
import { modelName } from '../../backend.js';
import { typeName } from '../../../triton/data-types.js';

const INPUT_KINDS = [
  'BATCH_ELEMENT_COUNT',
  'BATCH_ACCUMULATED_ELEMENT_COUNT',
  'BATCH_ACCUMULATED_ELEMENT_COUNT_WITH_ZERO',
  'BATCH_MAX_ELEMENT_COUNT_AS_SHAPE',
  'BATCH_ITEM_SHAPE',
  'BATCH_ITEM_SHAPE_FLATTEN',
];
const OUTPUT_KINDS = ['BATCH_SCATTER_WITH_INPUT_SHAPE'];

const kindName = (k: string | number | undefined, names: string[]): string => {
  const v = k ?? 0;
  return typeof v === 'number' ? (names[v] ?? `${v}`) : v;
};

/** 'a', 'b': the names the config lists. */
const quotedList = (names: Set<string>): string => [...names].map((n) => `'${n}'`).join(', ');

export const batchIo = defineModelRule({
  meta: {
    id: 'batch-io',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: false,
    description: 'batch_input and batch_output entries need one known source input, a valid data type and known, unique targets',
    prevents: [
      "batch input kind '<KIND>' expects 1 source input, got <n> for <name>",
      'batch input data type must be TYPE_INT32 or TYPE_FP32 for <name>',
      "unknown source input name '<s>' for <name>",
      "batch output kind 'BATCH_SCATTER_WITH_INPUT_SHAPE' expects 1 source input, got <n> for <name>",
      "unknown target output name '<t>' for <name>",
      "target output name '<t>' can only be specified once for <name>",
      // A kind past the enum (tritonserver 2.51, test/server/quoted-messages-real-triton.test.ts): the JSON
      // config the backend reads carries it as a number where it reads a name.
      'attempt to access JSON non-string as string',
    ],
    messages: {
      sourceInputUnknown: `source_input '{{source}}' is not an input of the config ({{inputs}}), so Triton refuses the model ("unknown source input name '{{source}}' for {{modelName}}"); name one of the config's inputs`,
      sourceInputUnlisted: `source_input '{{source}}' is not an input of the config (it lists none; only a backend auto-complete could add it), so Triton refuses the model ("unknown source input name '{{source}}' for {{modelName}}"); name one of the config's inputs`,
      unknownBatchInputKind: `batch_input kind {{kind}} is not a batch input kind, so Triton refuses the model ("attempt to access JSON non-string as string": the backend reads the kind as a name, and finds the number); use one of {{INPUT_KINDS}}`,
      batchInputSourceMissing: `{{kind}} is computed from one input, and this batch_input gives {{length}}, so Triton refuses the model ("batch input kind '{{kind}}' expects 1 source input, got {{length}} for {{modelName}}"); add source_input: "<the config input it describes>"`,
      batchInputSourceCount: `{{kind}} is computed from one input, and this batch_input gives {{length}}, so Triton refuses the model ("batch input kind '{{kind}}' expects 1 source input, got {{length}} for {{modelName}}"); keep one source_input`,
      batchInputNoDataType: `this batch_input has no data_type, so Triton refuses the model ("batch input data type must be TYPE_INT32 or TYPE_FP32 for {{modelName}}"); set data_type: TYPE_INT32 or TYPE_FP32 (the type of the model's '{{target}}' input)`,
      batchInputDataType: `batch_input data_type {{dataType}} is not allowed, so Triton refuses the model ("batch input data type must be TYPE_INT32 or TYPE_FP32 for {{modelName}}"); set data_type: TYPE_INT32 or TYPE_FP32 (the type of the model's '{{target}}' input)`,
      unknownBatchOutputKind: `batch_output kind {{kind}} is not a batch output kind, so Triton refuses the model ("unknown batch output kind '{{kind}}' for {{modelName}}"); use BATCH_SCATTER_WITH_INPUT_SHAPE`,
      batchOutputSourceMissing: `{{kind}} scatters the output by the shape of one input, and this batch_output gives {{length}}, so Triton refuses the model ("batch output kind '{{kind}}' expects 1 source input, got {{length}} for {{modelName}}"); add source_input: "<the config input whose shape it follows>"`,
      batchOutputSourceCount: `{{kind}} scatters the output by the shape of one input, and this batch_output gives {{length}}, so Triton refuses the model ("batch output kind '{{kind}}' expects 1 source input, got {{length}} for {{modelName}}"); keep one source_input`,
      targetNameUnknown: `target_name '{{target}}' is not an output of the config ({{outputs}}), so Triton refuses the model ("unknown target output name '{{target}}' for {{modelName}}"); name one of the config's outputs`,
      targetNameUnlisted: `target_name '{{target}}' is not an output of the config (it lists none; only a backend auto-complete could add it), so Triton refuses the model ("unknown target output name '{{target}}' for {{modelName}}"); name one of the config's outputs`,
      targetNameTwice: `target_name '{{target}}' is given twice in this batch_output, so Triton refuses the model ("target output name '{{target}}' can only be specified once for {{modelName}}"); remove the repeat`,
    },
  },
  check(ctx) {
    const config = ctx.config;
    const name = modelName(ctx);
    const inputs = new Set((config.input ?? []).map((i) => i.name ?? ''));
    const outputs = new Set((config.output ?? []).map((o) => o.name ?? ''));
    // With no inputs (outputs) listed, the backend's auto-complete may write them from the model.
    const inputsListed = (config.input?.length ?? 0) > 0;
    const outputsListed = (config.output?.length ?? 0) > 0;

    const sources = (sourceList: string[], base: PathSegment[]): void => {
      sourceList.forEach((s, k) => {
        if (inputs.has(s)) return;
        const path = [...base, 'source_input', k];
        if (inputsListed) ctx.report({ path, messageId: 'sourceInputUnknown', data: { source: s, inputs: quotedList(inputs), modelName: name } });
        else ctx.report({ path, severity: 'warning', messageId: 'sourceInputUnlisted', data: { source: s, modelName: name } });
      });
    };

    (config.batch_input ?? []).forEach((b, i) => {
      const base: PathSegment[] = ['batch_input', i];
      const kind = kindName(b.kind, INPUT_KINDS);
      const kindPath = b.kind !== undefined ? [...base, 'kind'] : base;
      const src = b.source_input ?? [];
      if (!INPUT_KINDS.includes(kind)) {
        ctx.report({ path: kindPath, messageId: 'unknownBatchInputKind', data: { kind, modelName: name, INPUT_KINDS: INPUT_KINDS.join(', ') } });
        return;
      }
      if (src.length !== 1) {
        const data = { kind, count: src.length, length: src.length, modelName: name };
        if (src.length) ctx.report({ path: [...base, 'source_input', 1], messageId: 'batchInputSourceCount', data });
        else ctx.report({ path: kindPath, messageId: 'batchInputSourceMissing', data });
      }
      const type = typeName(b.data_type);
      if (type !== 'TYPE_INT32' && type !== 'TYPE_FP32') {
        const data = { kind, dataType: type, modelName: name, target: b.target_name?.[0] ?? 'target' };
        if (b.data_type === undefined) ctx.report({ path: kindPath, messageId: 'batchInputNoDataType', data });
        else ctx.report({ path: [...base, 'data_type'], messageId: 'batchInputDataType', data });
      }
      sources(src, base);
    });

    (config.batch_output ?? []).forEach((b, i) => {
      const base: PathSegment[] = ['batch_output', i];
      const kind = kindName(b.kind, OUTPUT_KINDS);
      const kindPath = b.kind !== undefined ? [...base, 'kind'] : base;
      const src = b.source_input ?? [];
      if (!OUTPUT_KINDS.includes(kind)) {
        ctx.report({ path: kindPath, messageId: 'unknownBatchOutputKind', data: { kind, modelName: name } });
        return;
      }
      if (src.length !== 1) {
        const data = { kind, count: src.length, length: src.length, modelName: name };
        if (src.length) ctx.report({ path: [...base, 'source_input', 1], messageId: 'batchOutputSourceCount', data });
        else ctx.report({ path: kindPath, messageId: 'batchOutputSourceMissing', data });
      }
      sources(src, base);
      const seen = new Set<string>();
      (b.target_name ?? []).forEach((t, k) => {
        if (!outputs.has(t)) {
          const path = [...base, 'target_name', k];
          if (outputsListed) ctx.report({ path, messageId: 'targetNameUnknown', data: { target: t, outputs: quotedList(outputs), modelName: name } });
          else ctx.report({ path, severity: 'warning', messageId: 'targetNameUnlisted', data: { target: t, modelName: name } });
        } else if (seen.has(t)) {
          ctx.report({
            path: [...base, 'target_name', k],
            messageId: 'targetNameTwice',
            data: { target: t, modelName: name },
          });
        }
        seen.add(t);
      });
    });
  },
});
