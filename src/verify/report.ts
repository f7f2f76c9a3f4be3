// The verify report as text for a person, and the dry run as text. (JSON is the report object itself.)
import { displayCommand } from './docker-args.js';
import type { RequestDescription } from './kserve-client.js';
import { errorText, toleranceText } from './reference.js';
import { shapeText } from './shapes.js';
import type { BatchRun, ConfigDifference, VerifyReport } from './types.js';
import type { DryRun } from './verify.js';
import { append, maxOf } from '../util/arrays.js';

const ms = (n: number | undefined): string =>
  n === undefined ? '' : n < 10 ? `${n.toFixed(2)} ms` : n < 1000 ? `${n.toFixed(1)} ms` : `${(n / 1000).toFixed(2)} s`;
const batchLabel = (b: number | null): string => (b === null ? 'fixed shape' : `batch ${b}`);

function runLines(run: BatchRun, width: number): string[] {
  const head = `  ${batchLabel(run.batchSize).padEnd(width)}  ${run.ok ? 'ok    ' : 'FAILED'}  ${ms(run.ms).padStart(9)}`;
  const lines = [head.trimEnd()];
  for (const i of run.inputs) lines.push(`      in   ${i.name} ${shapeText(i.shape)} ${i.dataType}`);
  for (const o of run.outputs) {
    const expected = o.ok ? '' : `   (config: ${shapeText(o.expectedShape)} ${o.expectedDataType})`;
    lines.push(`      out  ${o.name} ${o.shape.length || o.dataType ? `${shapeText(o.shape)} ${o.dataType}` : '(missing)'}${expected}`);
  }
  if (run.error) lines.push(`      error: ${run.error}`);
  return lines;
}

function diffLine(d: ConfigDifference): string {
  if (d.change === 'added') return `    + ${d.path}: ${d.effective}`;
  if (d.change === 'removed') return `    - ${d.path}: ${d.local}   (not in the effective config)`;
  return `    ~ ${d.path}: ${d.local} -> ${d.effective}`;
}

export function reportText(r: VerifyReport): string {
  const out: string[] = [];
  out.push(`tritonc verify ${r.model}${r.engine ? ` with ${r.engine}` : ''}`);
  if (r.configPath) out.push(`  config  ${r.configPath}`);
  if (r.modelFile) out.push(`  model   ${r.modelFile}`);
  if (r.load)
    out.push(
      `  load    ${r.load.ok ? 'ok' : 'REFUSED'}${r.load.ms !== undefined ? ` in ${ms(r.load.ms)}` : ''}${r.load.ok && r.load.detail ? ` (${r.load.detail})` : ''}`,
    );
  if (r.tritonMessages?.length) {
    out.push('  Triton said:');
    for (const m of r.tritonMessages) out.push(`    ${m.text}${m.ruleId ? ` [${m.ruleId}]` : ''}`);
  }
  if (r.configDiff) {
    if (r.configDiff.length) {
      out.push('  effective config (GET /v2/models/<name>/config) against config.pbtxt:');
      for (const d of r.configDiff) out.push(diffLine(d));
    } else {
      out.push('  effective config: the same as config.pbtxt');
    }
  }
  const width = maxOf(
    r.runs.map((x) => batchLabel(x.batchSize).length),
    0,
  );
  for (const run of r.runs) append(out, runLines(run, width));
  if (r.reference) {
    const ref = r.reference;
    const from = ref.inputs.every((i) => i.from === 'seeded') ? 'seeded inputs' : `inputs ${ref.inputs.map((i) => `${i.name} from ${i.from}`).join(', ')}`;
    out.push(
      `  against ${ref.against} on ${ref.modelFile} (${ref.batchSize === null ? 'the fixed shape' : `batch ${ref.batchSize}`}, ${from}; atol ${toleranceText(ref.atol)}, rtol ${toleranceText(ref.rtol)}):`,
    );
    for (const o of ref.outputs) {
      const verdict = o.ok ? 'ok' : o.undecided ? 'UNDECIDED' : 'DIFFERS';
      const why = o.problem
        ? `; ${o.problem}`
        : o.undecided
          ? '; the tolerance reaches every |reference|: an output of zeros would pass too'
          : o.mismatched
            ? `; ${o.mismatched} of ${o.elements} elements past the tolerance`
            : '';
      out.push(
        `    ${o.name}  ${verdict}  max abs error ${errorText(o.maxAbsError)}, max rel error ${errorText(o.maxRelError)}, largest |reference| ${errorText(o.largestReference)}${why}`,
      );
    }
  }
  for (const w of r.warnings ?? []) out.push(`  warning: ${w}`);
  for (const n of r.notes) out.push(`  note: ${n}`);
  // A refused load is already shown line by line under "Triton said", unless the finding says more
  // than Triton did (lint's likely reason for a refusal whose answer named none); the others follow.
  const said = new Set((r.tritonMessages ?? []).map((m) => m.ruleId));
  const shown = r.tritonMessages?.length ? r.problems.filter((p) => p.kind !== 'load' || (p.ruleId !== undefined && !said.has(p.ruleId))) : r.problems;
  for (const p of shown) out.push(`error: ${p.message}${p.ruleId ? ` [${p.ruleId}]` : ''}`);
  const marked = (r.tritonMessages ?? []).some((m) => m.ruleId) || shown.some((p) => p.kind === 'load' && p.ruleId);
  if (shown.length < r.problems.length || shown.some((p) => p.kind === 'load'))
    out.push(`error: Triton refused to load ${r.model}${marked ? '; tritonc lint catches the lines marked with a rule id before a load' : ''}`);
  out.push(summary(r));
  return `${out.join('\n')}\n`;
}

function summary(r: VerifyReport): string {
  switch (r.outcome) {
    case 'ok': {
      const sizes = r.runs.map((x) => (x.batchSize === null ? 'its fixed shape' : String(x.batchSize)));
      const at = r.runs.every((x) => x.batchSize === null) ? `at ${sizes.join(', ')}` : `at batch ${sizes.join(' and ')}`;
      return `ok: ${r.model} loaded and answered ${at} as configured`;
    }
    case 'problems':
      return `${r.model}: ${r.problems.length} problem${r.problems.length === 1 ? '' : 's'} (exit 1)`;
    case 'cannot-run': {
      // The comparison ran and decided nothing: the reason follows on stderr, in full.
      const undecided = (r.reference?.outputs ?? []).filter((o) => o.undecided).map((o) => `'${o.name}'`);
      if (undecided.length) return `${r.model}: could not verify: the tolerance decided nothing on output ${undecided.join(', ')} (exit 2)`;
      return `${r.model}: could not verify: ${r.error ?? ''} (exit 2)`;
    }
    case 'interrupted':
      return `${r.model}: ${r.error ?? 'interrupted'}`;
  }
}

function requestText(req: RequestDescription): string[] {
  const lines = [`  ${req.method} ${req.url}`];
  if (req.headers) for (const [k, v] of Object.entries(req.headers)) lines.push(`      ${k}: ${v}`);
  if (req.body !== undefined) lines.push(`      ${JSON.stringify(req.body)}`);
  if (req.binaryBytes) lines.push(`      + ${req.binaryBytes} bytes of binary tensor data (zeros)`);
  return lines;
}

export function dryRunText(d: DryRun): string {
  const out: string[] = [`tritonc verify ${d.model} --runtime ${d.runtime} --dry-run: nothing is run`];
  if (d.ort) {
    out.push(`would open ${d.ort.modelFile ?? '(no ONNX model found)'} in ONNX Runtime with ${JSON.stringify(d.ort.sessionOptions)}`);
    for (const run of d.ort.runs)
      out.push(`  ${batchLabel(run.batchSize)}: ${run.inputs.map((i) => `${i.name} ${shapeText(i.shape)} ${i.dataType}`).join(', ')}`);
  }
  if (d.command) out.push('would run:', `  ${displayCommand(d.command[0]!, d.command.slice(1))}`);
  if (d.requests.length) {
    out.push(d.command ? 'then poll the first request until the model is ready, and send:' : 'would send:');
    for (const req of d.requests) append(out, requestText(req));
  }
  if (d.cleanup) out.push('and always, at the end (also on failure, timeout and Ctrl-C):', `  ${displayCommand(d.cleanup[0]!, d.cleanup.slice(1))}`);
  return `${out.join('\n')}\n`;
}
