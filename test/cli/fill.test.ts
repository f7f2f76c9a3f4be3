// tritonc fill: fill_template.py's substitutions, strict, linted before writing, and never leaving a
// half-written or wrongly changed template.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { writeRepo } from '../lint/harness.js';
import { escapedSplit, parseSubstitutions } from '../../src/fill/substitutions.js';

// The shape of the TensorRT-LLM preprocessing template (triton_cli templates/trt_llm/preprocessing).
const TEMPLATE = `name: "preprocessing"
backend: "python"
max_batch_size: \${triton_max_batch_size}
input [ { name: "QUERY" data_type: TYPE_STRING dims: [ 1 ] } ]
output [ { name: "INPUT_ID" data_type: TYPE_INT32 dims: [ -1 ] } ]
dynamic_batching { max_queue_delay_microseconds: \${max_queue_delay_microseconds} }
parameters { key: "tokenizer_dir" value: { string_value: "\${tokenizer_dir}" } }
instance_group [ { count: \${preprocessing_instance_count} kind: KIND_CPU } ]
`;
const MODEL_PY = 'class TritonPythonModel:\n    pass\n';

async function repo(): Promise<{ dir: string; template: string }> {
  const dir = await writeRepo({ 'preprocessing/config.pbtxt': TEMPLATE, 'preprocessing/1/model.py': MODEL_PY });
  return { dir, template: join(dir, 'preprocessing/config.pbtxt') };
}

describe("fill_template.py's substitution syntax", () => {
  it('splits at unescaped commas, then colons, each split dropping its escapes', () => {
    expect(escapedSplit('a\\,b,c', ',')).toEqual(['a,b', 'c']);
    expect(parseSubstitutions('tokenizer_dir:/models/llama,triton_max_batch_size:64')).toEqual([
      { key: 'tokenizer_dir', value: '/models/llama' },
      { key: 'triton_max_batch_size', value: '64' },
    ]);
    expect(parseSubstitutions('names:a\\,b')).toEqual([{ key: 'names', value: 'a,b' }]);
    // Split twice: \\: survives the first split as \:, and the second reads it as a plain colon.
    expect(parseSubstitutions('url:http\\\\://host')).toEqual([{ key: 'url', value: 'http://host' }]);
    expect(() => parseSubstitutions('url:http\\://host')).toThrow(
      /2 `:` separators: write key:value \(two pairs run together\? put a comma between "url:http" and the next one; a `:` inside a value is written \\\\:/,
    );
    expect(() => parseSubstitutions('justakey')).toThrow(/substitution 1, "justakey", has no `:`/);
  });
});

describe('tritonc fill', () => {
  it('prints the filled config, with the defaults fill_template.py adds said on stderr', async () => {
    const { dir, template } = await repo();
    const r = await cli(['fill', template, 'triton_max_batch_size:64,tokenizer_dir:/models/llama,preprocessing_instance_count:2'], { cwd: dir });
    expect(r.stderr).toContain("${max_queue_delay_microseconds} filled with 0, fill_template.py's default");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('max_batch_size: 64\n');
    expect(r.stdout).toContain('string_value: "/models/llama"');
    expect(r.stdout).toContain('max_queue_delay_microseconds: 0 }');
    expect(r.stdout.endsWith('\n\n')).toBe(true); // the template's last newline, then print()'s
    expect(readFileSync(template, 'utf8')).toBe(TEMPLATE);
  });

  it('gives what python3 string.Template gives on the same mapping', async () => {
    const python = spawnSync(
      'python3',
      ['-c', 'import string,sys,json; m=json.loads(sys.argv[2]); print(string.Template(open(sys.argv[1]).read()).safe_substitute(m))', '', ''],
      { encoding: 'utf8' },
    );
    if (python.error) {
      if (process.env.CI === 'true') throw python.error;
      return;
    }
    const { dir, template } = await repo();
    const mapping = {
      max_queue_size: '0',
      max_queue_delay_microseconds: '0',
      triton_max_batch_size: '8',
      tokenizer_dir: '/t',
      preprocessing_instance_count: '1',
    };
    const expected = spawnSync(
      'python3',
      [
        '-c',
        'import string,sys,json; m=json.loads(sys.argv[2]); print(string.Template(open(sys.argv[1]).read()).safe_substitute(m))',
        template,
        JSON.stringify(mapping),
      ],
      { encoding: 'utf8' },
    ).stdout;
    const r = await cli(['fill', template, 'triton_max_batch_size:8,tokenizer_dir:/t,preprocessing_instance_count:1'], { cwd: dir });
    expect(r.stdout).toBe(expected);
  });

  it('refuses a key the template lacks, naming it, and writes nothing; with --strict, every placeholder left unfilled too', async () => {
    const { dir, template } = await repo();
    const before = statSync(template).mtimeMs;
    const r = await cli(['fill', template, 'triton_max_batch_size:64,tokenizer_dri:/t', '--in-place'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('the template has no placeholder ${tokenizer_dri}: did you mean tokenizer_dir?');
    expect(r.stderr).toContain('nothing written');
    const strict = await cli(['fill', template, 'triton_max_batch_size:64', '--in-place', '--strict'], { cwd: dir });
    expect(strict.code).toBe(1);
    expect(strict.stderr).toMatch(
      /preprocessing\/config\.pbtxt:7:59: error: placeholder \$\{tokenizer_dir\} is not filled: add tokenizer_dir:<value> to the substitutions \(--strict\)/,
    );
    expect(strict.stderr).toMatch(/:8:27: error: placeholder \$\{preprocessing_instance_count\} is not filled/);
    expect(readFileSync(template, 'utf8')).toBe(TEMPLATE);
    expect(statSync(template).mtimeMs).toBe(before);
  });

  it('a placeholder in a comment (a parameter shipped commented out) need not be filled', async () => {
    const dir = await writeRepo({
      'preprocessing/config.pbtxt': `${TEMPLATE}# parameters { key: "enable_trt_overlap" value: { string_value: "\${enable_trt_overlap}" } }\n`,
      'preprocessing/1/model.py': MODEL_PY,
    });
    const r = await cli(['fill', join(dir, 'preprocessing/config.pbtxt'), 'triton_max_batch_size:4,tokenizer_dir:/t,preprocessing_instance_count:1'], {
      cwd: dir,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('"${enable_trt_overlap}"');
  });

  it('leaves placeholders as fill_template.py does and lets the lint judge them: what the backend treats as unset passes, what Triton cannot parse does not', async () => {
    const { dir, template } = await repo();
    writeFileSync(template, `${TEMPLATE}parameters { key: "add_special_tokens" value: { string_value: "\${add_special_tokens}" } }\n`);
    for (const flags of [[], ['--allow-unfilled']]) {
      const ok = await cli(['fill', template, 'triton_max_batch_size:8,tokenizer_dir:/t,preprocessing_instance_count:1', ...flags], { cwd: dir });
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.stderr).toContain(
        'tritonc fill: 1 placeholder left unfilled, as fill_template.py leaves them (${add_special_tokens}); the lint below says what each does; --strict refuses them',
      );
      expect(ok.stderr).toContain('unfilled-placeholder');
      expect(ok.stdout).toContain('"${add_special_tokens}"');
    }
    writeFileSync(template, TEMPLATE);
    const unparsable = await cli(['fill', template, 'tokenizer_dir:/t,preprocessing_instance_count:1', '-i'], { cwd: dir });
    expect(unparsable.code).toBe(1);
    expect(unparsable.stderr).toContain('template placeholder ${triton_max_batch_size} where field "max_batch_size" needs a value');
    expect(readFileSync(template, 'utf8')).toBe(TEMPLATE);
    // A required parameter the backend reads without a default (preprocessing's tokenizer_dir) fails the load.
    const required = await cli(['fill', template, 'triton_max_batch_size:8,preprocessing_instance_count:1', '-i'], { cwd: dir });
    expect(required.code, required.stderr).toBe(1);
    expect(required.stderr).toContain('parameter tokenizer_dir is the unfilled placeholder ${tokenizer_dir}, and the Python model fails the load on it');
  });

  it('judges the config it fills, not where the template sits: a template outside any model directory', async () => {
    const dir = await writeRepo({ 't/config.pbtxt.tpl': TEMPLATE });
    const r = await cli(['fill', 't/config.pbtxt.tpl', 'triton_max_batch_size:8,tokenizer_dir:/t,preprocessing_instance_count:1'], { cwd: dir });
    expect(r.stderr).not.toContain('version-dirs');
    expect(r.stderr).not.toContain('name-matches-directory');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('max_batch_size: 8\n');
  });

  it('lints the result where it will stand: an error there writes nothing', async () => {
    const { dir, template } = await repo();
    const r = await cli(['fill', template, 'triton_max_batch_size:sixty-four,tokenizer_dir:/t,preprocessing_instance_count:1', '-i'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/3:\d+\s+error/);
    expect(r.stderr).toContain('the filled config has errors where it would stand');
    expect(readFileSync(template, 'utf8')).toBe(TEMPLATE);
  });

  it('writes in place, or to -o (linted there), atomically', async () => {
    const { dir, template } = await repo();
    await writeRepo({ 'serving/preprocessing/1/model.py': MODEL_PY }, dir);
    const out = join(dir, 'serving/preprocessing/config.pbtxt');
    const o = await cli(['fill', template, 'triton_max_batch_size:4,tokenizer_dir:/t,preprocessing_instance_count:1', '-o', out], { cwd: dir });
    expect(o.code, o.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('max_batch_size: 4\n');
    expect(readFileSync(template, 'utf8')).toBe(TEMPLATE);
    // Into a directory that is not a model of the repository: lint says so, and nothing is written.
    const stray = join(dir, 'stray/config.pbtxt');
    const s2 = await cli(['fill', template, 'triton_max_batch_size:4,tokenizer_dir:/t,preprocessing_instance_count:1', '-o', stray], { cwd: dir });
    expect(s2.code).toBe(1);
    expect(s2.stderr).toContain('version-dirs');
    const r = await cli(['fill', template, 'triton_max_batch_size:4,tokenizer_dir:/t,preprocessing_instance_count:1', '--in-place'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(template, 'utf8')).toContain('max_batch_size: 4\n');
    expect(readFileSync(template, 'utf8')).not.toContain('${');
  });

  it('bad arguments: exit 2 with the reason', async () => {
    const { dir, template } = await repo();
    expect((await cli(['fill', join(dir, 'nope.pbtxt'), 'a:b'], { cwd: dir })).stderr).toContain('no such file');
    const r = await cli(['fill', template, 'a:b:c'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('substitution 1, "a:b:c", has 2 `:` separators');
    expect((await cli(['fill', template, 'a:b', '-i', '-o', 'x'], { cwd: dir })).code).toBe(2);
  });
});
