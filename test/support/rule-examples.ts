// The examples of the rule pages (docs/rules/<id>.md) as runnable cases. Each `### ` heading under
// `## Examples` is one example: a small repository written by its fenced blocks, and the findings
// of the page's rule on it.
//
//   ```pbtxt <path>            a config file (default path model/config.pbtxt)
//   ```onnx <path> [<path>...] an ONNX model built from lines `input|output <name> <ELEM> [d,...]`, `weights <bytes>`,
//                              `ir_version <n>` and `opset <domain> <n>` (ai.onnx is the default domain)
//   ```text <path>             any other file, written as it is (an empty block writes an empty file)
//   ```json tritonc.config.json  the settings
//   ```deployment <path> <dirs>  a manifest (YAML, or JSON for SageMaker) whose first tritonserver serves the
//                              repository <dirs> (a directory for every store, or named=dir,...): the example is
//                              linted as lint --deployment runs it
//   ```findings                the page's rule's findings: `<path>:<line>:<column> <severity> <messageId> <message>`, or `(none)`
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Diagnostic } from '../../src/diagnostics.js';
import { lintSync } from '../../src/lint/engine.js';
import { RULES } from '../../src/lint/rules/index.js';
import type { OnnxSpec, RepoFiles, TensorSpec } from '../lint/harness.js';
import { deploymentRunOptions, storeDirs } from './deployment-case.js';

export interface RuleExample {
  title: string;
  files: RepoFiles;
  /** The manifest and the repository it serves, for a deployment rule's example. */
  deployment?: { manifest: string; repository: string };
  /** The findings block's lines ([] for `(none)`), and where the block's body starts and ends in the page. */
  findings: { lines: string[]; start: number; end: number } | undefined;
}

const FENCE = /^```([^\n]*)\n([\s\S]*?)^```[ \t]*$/gm;

export function parseExamples(page: string): RuleExample[] {
  const at = page.search(/^## Examples?\s*$/m);
  if (at < 0) return [];
  const section = page.slice(at);
  const offset = at;
  const examples: RuleExample[] = [];
  let current: RuleExample | undefined;
  const headings = [...section.matchAll(/^### (.+)$/gm)].map((m) => ({ title: m[1]!.trim(), index: m.index }));
  for (const m of section.matchAll(FENCE)) {
    const heading = [...headings].reverse().find((h) => h.index < m.index);
    if (!heading) continue;
    if (!current || current.title !== heading.title) examples.push((current = { title: heading.title, files: {}, findings: undefined }));
    const [kind = '', ...args] = m[1]!.trim().split(/\s+/);
    const body = m[2]!;
    if (kind === 'pbtxt') current.files[args[0] ?? 'model/config.pbtxt'] = body;
    else if (kind === 'onnx') for (const p of args) current.files[p] = onnxSpec(body);
    else if (kind === 'text' || kind === 'json') current.files[args[0]!] = body;
    else if (kind === 'deployment') {
      current.files[args[0]!] = body;
      current.deployment = { manifest: args[0]!, repository: args[1] ?? '.' };
    } else if (kind === 'findings') {
      const start = offset + m.index + m[0].indexOf('\n') + 1;
      const lines = body.split('\n').filter((l) => l.trim() !== '');
      current.findings = { lines: lines.length === 1 && lines[0] === '(none)' ? [] : lines, start, end: start + body.length };
    }
  }
  return examples;
}

function onnxSpec(body: string): OnnxSpec {
  const spec: OnnxSpec = { inputs: [], outputs: [] };
  for (const line of body
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)) {
    const m = /^(input|output)\s+(\S+)\s+(\w+)\s+(\[[^\]]*\]|scalar|none)$/.exec(line);
    if (m) {
      const shape =
        m[4] === 'none'
          ? null
          : m[4] === 'scalar'
            ? []
            : m[4]!
                .slice(1, -1)
                .split(',')
                .map((d) => d.trim())
                .filter(Boolean)
                .map((d) => (/^-?\d+$/.test(d) ? Number(d) : d));
      const t: TensorSpec = [m[2]!, m[3]!, shape];
      (m[1] === 'input' ? spec.inputs : spec.outputs).push(t);
      continue;
    }
    const w = /^weights\s+(\d+)$/.exec(line);
    if (w) {
      // External data sized by its length key: no weights are written, however large.
      spec.externalBytes = Number(w[1]);
      continue;
    }
    const ir = /^ir_version\s+(\d+)$/.exec(line);
    if (ir) {
      spec.irVersion = Number(ir[1]);
      continue;
    }
    const op = /^opset\s+(\S+)\s+(\d+)$/.exec(line);
    if (op) {
      if (op[1] === 'ai.onnx') spec.opset = Number(op[2]);
      else spec.extraOpsets = [...(spec.extraOpsets ?? []), { domain: op[1]!, version: Number(op[2]) }];
      continue;
    }
    throw new Error(`onnx block: cannot read "${line}" (input|output <name> <ELEM> [dims], weights <bytes>, ir_version <n>, or opset <domain> <n>)`);
  }
  return spec;
}

export const readPage = (path: string): string => readFileSync(path, 'utf8');

/** Every rule's findings on an example written at `repo` (a deployment's: as lint --deployment runs it). */
export function lintExample(ex: RuleExample, repo: string): Diagnostic[] {
  const run = ex.deployment
    ? deploymentRunOptions(ex.files[ex.deployment.manifest] as string, join(repo, ex.deployment.manifest), storeDirs(ex.deployment.repository, repo), repo)
    : undefined;
  return lintSync(run?.served ?? [repo], { cwd: repo, rules: RULES, ...run?.options }).results.flatMap((r) => r.diagnostics);
}
