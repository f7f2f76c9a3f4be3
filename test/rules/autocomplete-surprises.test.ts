import { describe, expect, it } from 'vitest';
import { missingDynamicAxis } from '../../src/lint/rules/correctness/missing-dynamic-axis.js';
import { autocompleteSurprises } from '../../src/lint/rules/suspicious/autocomplete-surprises.js';
import type { Rule } from '../../src/lint/rule.js';
import { CLASSIFIER, check as checkWith, type Finding, type OnnxSpec } from '../lint/harness.js';
import { QA_MODEL_NOBATCH } from './qa-model.js';

const RULE = 'autocomplete-surprises';
const check = (config: string, onnx?: OnnxSpec, rules: Rule[] = [autocompleteSurprises]): Promise<Finding[]> => checkWith(RULE, config, onnx, { rules });
const quoted = (f: Finding): string | undefined => f.message.match(/\("([^"]*)"\)/)?.[1];

const ORT = 'platform: "onnxruntime_onnx"\n';
const IO = 'input [ { name: "input" data_type: TYPE_FP32 dims: [ 3, 224, 224 ] } ]\noutput [ { name: "output" data_type: TYPE_FP32 dims: [ 1000 ] } ]\n';
const FULL_IO = 'input [ { name: "input" data_type: TYPE_FP32 dims: [ -1, 3, 224, 224 ] } ]\noutput [ { name: "output" data_type: TYPE_FP32 dims: [ -1, 1000 ] } ]\n';

describe('autocomplete-surprises', () => {
  describe('valid', () => {
    it('a batchable model with max_batch_size and its I/O listed', async () => {
      expect(await check(`${ORT}max_batch_size: 8\n${IO}dynamic_batching { }\n`, CLASSIFIER)).toEqual([]);
    });

    it('a config that leaves max_batch_size and I/O to auto-complete (the documented default)', async () => {
      expect(await check(ORT, CLASSIFIER)).toEqual([]);
    });

    it('an explicit max_batch_size: 0 with inputs and outputs listed means what it says', async () => {
      expect(await check(`${ORT}max_batch_size: 0\n${FULL_IO}`, CLASSIFIER)).toEqual([]);
    });

    it('a model that cannot batch, served with max_batch_size 0', async () => {
      expect(await check(`${ORT}max_batch_size: 0\n`, QA_MODEL_NOBATCH)).toEqual([]);
    });

    it('no model file: nothing is guessed about batching', async () => {
      expect(await check(`${ORT}max_batch_size: 0\n`)).toEqual([]);
    });
  });

  describe('invalid', () => {
    it('an explicit max_batch_size: 0 on a batchable model without both I/O lists is replaced by 4', async () => {
      const [f, ...rest] = await check(`${ORT}max_batch_size: 0\n`, CLASSIFIER);
      expect(rest).toEqual([]);
      expect(f).toMatchObject({ severity: 'warning', line: 2, token: '0' });
      expect(f!.message).toContain('max_batch_size: 0 is replaced by 4');
    });

    it('inputs and outputs listed without max_batch_size: auto-complete is skipped and batching never turned on', async () => {
      const [f, ...rest] = await check(`${ORT}${FULL_IO}`, CLASSIFIER);
      expect(rest).toEqual([]);
      expect(f).toMatchObject({ severity: 'warning', line: 2, token: 'input' });
      expect(quoted(f!)).toBe("skipping model configuration auto-complete for 'm': inputs and outputs already specified");
    });

    it('max_batch_size > 0 on a model that cannot batch, when missing-dynamic-axis is off', async () => {
      const config = `max_batch_size: 1\ninput [ { name: "INPUT0" data_type: TYPE_INT32 dims: [ 16 ] }, { name: "INPUT1" data_type: TYPE_INT32 dims: [ 16 ] } ]\n`;
      const [f, ...rest] = await check(config, QA_MODEL_NOBATCH);
      expect(rest).toEqual([]);
      expect(f).toMatchObject({ severity: 'error', token: '1' });
      expect(quoted(f!)).toBe("autofill failed for model 'm': model does not support batching while non-zero max_batch_size is specified");
      // missing-dynamic-axis reports the same problem; this rule then stays quiet.
      expect(await check(config, QA_MODEL_NOBATCH, [autocompleteSurprises, missingDynamicAxis])).toEqual([]);
    });

    it('version_policy {} serves every version', async () => {
      const [f] = await check(`${ORT}version_policy { }\n`);
      expect(f).toMatchObject({ severity: 'warning', token: 'version_policy' });
      expect(f!.message).toContain('selects every version directory');
    });

    it('dynamic_batching with max_batch_size 0 that stays 0', async () => {
      const listed = await check(`${ORT}max_batch_size: 0\n${FULL_IO}dynamic_batching { }\n`, CLASSIFIER);
      expect(listed.map((x) => [x.severity, x.token])).toEqual([['warning', 'dynamic_batching']]);
      expect(listed[0]!.message).toContain('dynamic_batching has no effect with max_batch_size 0');
      const unbatchable = await check(`${ORT}dynamic_batching { }\n`, QA_MODEL_NOBATCH);
      expect(unbatchable.map((x) => x.token)).toEqual(['dynamic_batching']);
      // Auto-complete may still raise max_batch_size when there is no model to tell.
      expect(await check(`${ORT}dynamic_batching { }\n`)).toEqual([]);
    });
  });
});
