// Our string.Template against Debian's python3 on the same inputs: random templates over the
// characters that matter to the pattern, filled with random mappings, through
// string.Template(t).safe_substitute(m) in one python3 process.
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { placeholderNames, safeSubstitute } from '../../src/fill/python-template.js';

const python = spawnSync('python3', ['-c', 'import string'], { encoding: 'utf8' });
const havePython = python.status === 0;
if (!havePython && process.env.CI === 'true') throw new Error('CI=true but python3 is missing');

/** Python's answers for many cases at once: JSON lines in, JSON lines out. */
function pythonSubstitute(cases: Array<{ template: string; mapping: Record<string, string> }>): string[] {
  const script =
    'import json, string, sys\nfor line in sys.stdin:\n    c = json.loads(line)\n    print(json.dumps(string.Template(c["template"]).safe_substitute(c["mapping"])))\n';
  const r = spawnSync('python3', ['-c', script], { input: cases.map((c) => JSON.stringify(c)).join('\n') + '\n', encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as string);
}

describe.skipIf(!havePython)('safeSubstitute is string.Template.safe_substitute', () => {
  it('on the shapes of real templates', () => {
    const cases: Array<{ template: string; mapping: Record<string, string> }> = [
      { template: 'max_batch_size: ${triton_max_batch_size}\nvalue: { string_value: "${engine_dir}" }', mapping: { triton_max_batch_size: '64' } },
      { template: 'cost: $$5 and $$${x} and $x_y ${x}y $ ${ } ${1a} $1', mapping: { x: 'X', x_y: 'XY' } },
      { template: 'ÄÖ $Ä ${é} $abc', mapping: { abc: '$def' } },
      { template: '$A ${A} $a', mapping: { a: 'lower' } },
      { template: 'trailing $', mapping: {} },
    ];
    expect(cases.map((c) => safeSubstitute(c.template, new Map(Object.entries(c.mapping))).text)).toEqual(pythonSubstitute(cases));
  });

  it('on random templates and mappings', () => {
    const piece = fc.constantFrom('$', '$$', '{', '}', 'a', 'B', '_', '1', ' ', '\n', 'x', 'name', '${name}', '$name', '${', '-', 'é');
    const caseArb = fc.record({
      template: fc.array(piece, { maxLength: 30 }).map((a) => a.join('')),
      mapping: fc.dictionary(fc.constantFrom('a', 'B', 'x', 'name', '_', 'a1', 'nameB', 'ax'), fc.constantFrom('', 'v', '$x', '${name}', '\\', 'ü')),
    });
    const cases = fc.sample(caseArb, { numRuns: 500, seed: 7 });
    expect(cases.map((c) => safeSubstitute(c.template, new Map(Object.entries(c.mapping))).text)).toEqual(pythonSubstitute(cases));
  });
});

describe('placeholderNames', () => {
  it('names the placeholders, not escaped dollars or invalid ones', () => {
    expect(placeholderNames('$$skip ${a} $b_2 $ ${ } ${a} $3')).toEqual(['a', 'b_2']);
  });
});
