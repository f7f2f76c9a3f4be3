// The tokenizer and the reader of auto_complete_config: the lexical rules they follow (strings with
// every prefix, triple quotes, comments, continuations, brackets, indentation), the subset they
// evaluate, and where they stop ("not known"), never guessing past it.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAutoCompleteConfig, READ_LIMITS, type PyValue } from '../../src/python-model/auto-complete-config.js';
import { tokenize } from '../../src/python-model/tokenizer.js';

const FIXTURES = join(import.meta.dirname, '../../fixtures/models/python');
const fn = (body: string, decorator = '@staticmethod', params = 'auto_complete_model_config'): string =>
  `import triton_python_backend_utils as pb_utils\n\nclass TritonPythonModel:\n    ${decorator}\n    def auto_complete_config(${params}):\n${body
    .split('\n')
    .map((l) => (l ? `        ${l}` : l))
    .join('\n')}\n\n    def execute(self, requests):\n        pass\n`;
const str = (v: string): PyValue => ({ t: 'str', v });
const int = (v: number): PyValue => ({ t: 'int', v });

describe('tokenize', () => {
  it('strings: prefixes, triple quotes over lines, escapes, adjacent pieces', () => {
    const { tokens, error } = tokenize(`a = r"x\\n" + b'y' + u"\\x41\\u00e9" + """one\ntwo""" + f"{z}" + 'it\\'s'\n`);
    expect(error).toBeUndefined();
    const strings = tokens.filter((t) => t.kind === 'string');
    expect(strings.map((t) => [t.prefix, t.value])).toEqual([
      ['r', 'x\\n'],
      ['b', undefined],
      ['u', 'Aé'],
      ['', 'one\ntwo'],
      ['f', undefined],
      ['', "it's"],
    ]);
    // The token after the triple-quoted string knows its line.
    expect(tokens.find((t) => t.text === "'it\\'s'")!.line).toBe(2);
  });
  it('comments, backslash continuations and brackets join lines; blank lines do not indent', () => {
    const { tokens } = tokenize('x = [1,  # one\n     2] \\\n  + y\n\n    # only a comment\nz = 3\n');
    expect(tokens.filter((t) => t.kind === 'newline')).toHaveLength(2);
    expect(tokens.some((t) => t.kind === 'indent')).toBe(false);
  });
  it('indentation: INDENT and DEDENT, tabs to multiples of 8, and an inconsistent dedent is an error', () => {
    const kinds = tokenize('if a:\n\tb = 1\n        c = 2\nd = 3\n').tokens.map((t) => t.kind);
    expect(kinds.filter((k) => k === 'indent')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'dedent')).toHaveLength(1);
    expect(tokenize('if a:\n    b\n  c\n').error?.reason).toBe('unindent does not match any outer indentation level');
  });
  it('stops with where and why: unterminated strings, unclosed and unmatched brackets', () => {
    expect(tokenize('x = "abc\n').error).toMatchObject({ line: 1, col: 5, reason: 'an unterminated string' });
    expect(tokenize('x = """abc\n\n').error).toMatchObject({ reason: 'an unterminated triple-quoted string' });
    expect(tokenize('x = (1,\n').error?.reason).toBe("'(' was never closed");
    expect(tokenize('x = 1)\n').error?.reason).toBe("unmatched ')'");
    expect(tokenize('x = ' + '('.repeat(500)).error?.reason).toBe('brackets nested deeper than 200');
  });
});

describe('readAutoCompleteConfig', () => {
  it("reads every model.py of Triton's L0_model_config Python cases to its end", () => {
    const files = [join(FIXTURES, 'auto_complete', 'model.py')];
    const walk = (d: string): void => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        if (e.isDirectory()) walk(join(d, e.name));
        else if (e.name === 'model.py') files.push(join(d, e.name));
      }
    };
    walk(join(FIXTURES, 'L0_model_config'));
    expect(files).toHaveLength(24);
    for (const f of files) {
      const facts = readAutoCompleteConfig(readFileSync(f, 'utf8'));
      expect(facts.unknown, f).toBeUndefined();
      expect(facts.defines).toBe(true);
      expect(facts.returns, f).toBe(f.includes('no_return') ? 'other' : 'config');
    }
  });

  it('follows local names, dict(k=v), loops over a literal list, keyword arguments, and a classmethod', () => {
    const facts = readAutoCompleteConfig(
      fn(
        `inputs = [{"name": "A", "data_type": "TYPE_FP32", "dims": [-1]}, dict(name="B", data_type="TYPE_INT64", dims=(2,))]
for i in inputs:
    config.add_input(i)
config.set_max_batch_size(max_batch_size=8)
config.set_model_transaction_policy(dict(decoupled=False))
return config`,
        '@classmethod',
        'cls, config',
      ),
    );
    expect(facts.unknown).toBeUndefined();
    expect(facts.parameter).toBe('config');
    expect(facts.calls.map((c) => c.method)).toEqual(['add_input', 'add_input', 'set_max_batch_size', 'set_model_transaction_policy']);
    expect(facts.calls[0]!.arg).toEqual({
      t: 'dict',
      entries: [
        [str('name'), str('A')],
        [str('data_type'), str('TYPE_FP32')],
        [str('dims'), { t: 'list', items: [int(-1)] }],
      ],
    });
    expect(facts.calls[1]!.arg).toMatchObject({
      entries: [
        [str('name'), str('B')],
        [str('data_type'), str('TYPE_INT64')],
        [str('dims'), { t: 'tuple', items: [int(2)] }],
      ],
    });
    expect(facts.calls[2]).toMatchObject({ arg: int(8), line: 9 });
    expect(facts.returns).toBe('config');
  });

  it('a model.py without auto_complete_config: the stub returns the config as given', () => {
    expect(readAutoCompleteConfig('class TritonPythonModel:\n    def execute(self, requests):\n        pass\n')).toEqual({ defines: false, calls: [] });
    expect(readAutoCompleteConfig('')).toEqual({ defines: false, calls: [] });
  });

  it('stops at what it cannot follow, once, keeping the calls before it', () => {
    const cases: [string, string][] = [
      ['n = compute()\nconfig.set_max_batch_size(n)', 'the argument of set_max_batch_size: the result of compute() on line 7'],
      ['if config.as_dict()["max_batch_size"] == 0:\n    config.set_max_batch_size(4)', "'if' statement"],
      ['helper(config)', 'a call of helper()'],
      ['c = config\nc.set_max_batch_size(4)', 'a value computed from the config'],
      ['config.set_max_batch_size(4 * 2)', 'the argument of set_max_batch_size: a computed value on line 7'],
      ['for i in range(2):\n    config.add_input(i)', "a 'for' loop over the result of range() on line 7"],
      ['config.set_max_batch_size(os.environ["N"])', 'the argument of set_max_batch_size: a computed value on line 7'],
    ];
    for (const [body, reason] of cases) {
      const facts = readAutoCompleteConfig(fn(`config.set_dynamic_batching()\n${body}\nreturn config`, '@staticmethod', 'config'));
      expect(
        facts.calls.map((c) => c.method),
        body,
      ).toEqual(['set_dynamic_batching']);
      expect(facts.unknown?.reason, body).toBe(reason);
      expect(facts.returns, body).toBeUndefined();
    }
  });

  it('a dict changed after it was handed to the config, other decorators, inheritance: not known', () => {
    expect(
      readAutoCompleteConfig(
        fn('d = {"name": "A", "data_type": "TYPE_FP32", "dims": [1]}\nconfig.add_input(d)\nd["dims"] = [2]\nreturn config', '@staticmethod', 'config'),
      ).unknown?.reason,
    ).toBe("a change to 'd' after it was handed to the config");
    expect(readAutoCompleteConfig(fn('return config', '@functools.cache', 'config')).unknown?.reason).toBe(
      'auto_complete_config is decorated with @functools.cache',
    );
    expect(readAutoCompleteConfig('class TritonPythonModel(Base):\n    pass\n').unknown?.reason).toBe(
      'TritonPythonModel has base classes, which may define auto_complete_config',
    );
  });

  it('dict keys as Python compares them: 1, 1.0 and True are one key, kept where it was first set; tuples; unhashable keys not followed', () => {
    const arg = (body: string): PyValue | undefined =>
      readAutoCompleteConfig(fn(`${body}\nconfig.set_model_transaction_policy(d)\nreturn config`, '@staticmethod', 'config')).calls[0]?.arg;
    expect(arg('d = {1: "a", "x": "b", 1.0: "c", True: "d"}')).toEqual({
      t: 'dict',
      entries: [
        [int(1), str('d')],
        [str('x'), str('b')],
      ],
    });
    expect(arg('d = {(1, "a"): 1, (1, "b"): 2, (True, "a"): 3}\nd[(1.0, "b")] = 4\nd["new"] = 5')).toEqual({
      t: 'dict',
      entries: [
        [{ t: 'tuple', items: [int(1), str('a')] }, int(3)],
        [{ t: 'tuple', items: [int(1), str('b')] }, int(4)],
        [str('new'), int(5)],
      ],
    });
    expect(readAutoCompleteConfig(fn('d = {(1, [2]): 1}\nconfig.set_model_transaction_policy(d)', '@staticmethod', 'config')).unknown?.reason).toBe(
      'the argument of set_model_transaction_policy: a key the reader does not evaluate',
    );
  });

  // Hang bounds, not speed targets (bench/readers-scale.mjs measures): a search of the entries for
  // each key grew with the square of the dict (100,000 keys: 5e9 comparisons).
  it('a dict literal of 100,000 keys is read; a large dict handed again and again stops at the bound on what the calls hold', { timeout: 60_000 }, () => {
    const n = 100_000;
    const keys = Array.from({ length: n }, (_, i) => `${i}: ${i}`).join(', ');
    const facts = readAutoCompleteConfig(fn(`config.set_model_transaction_policy({${keys}})\nreturn config`, '@staticmethod', 'config'));
    expect(facts.unknown).toBeUndefined();
    const d = facts.calls[0]!.arg!;
    expect(d.t === 'dict' && d.entries.length).toBe(n);
    const looped = readAutoCompleteConfig(
      fn(`d = {${keys}}\nfor i in [${'0, '.repeat(9_000)}0]:\n    config.set_model_transaction_policy(d)\nreturn config`, '@staticmethod', 'config'),
    );
    expect(looped.unknown?.reason).toBe(`arguments holding more than ${READ_LIMITS.maxArgumentValues} values in all`);
    expect(looped.calls).toHaveLength(4);
  });

  it('return: of the config, of None, of nothing, or falling off the end', () => {
    expect(readAutoCompleteConfig(fn('return config', '@staticmethod', 'config')).returns).toBe('config');
    expect(readAutoCompleteConfig(fn('return None', '@staticmethod', 'config')).returns).toBe('other');
    expect(readAutoCompleteConfig(fn('return', '@staticmethod', 'config')).returns).toBe('other');
    expect(readAutoCompleteConfig(fn('pass', '@staticmethod', 'config')).returns).toBe('other');
    expect(readAutoCompleteConfig(fn('"""A docstring."""\nreturn config', '@staticmethod', 'config')).returns).toBe('config');
  });

  it('a syntax error inside the function: known up to it', () => {
    const facts = readAutoCompleteConfig(fn('config.set_max_batch_size(4)\nx = "unterminated\nreturn config', '@staticmethod', 'config'));
    expect(facts.calls).toHaveLength(1);
    expect(facts.unknown?.reason).toMatch(/^model.py cannot be read past line 7 \(an unterminated string\)$/);
  });
});
