// The generated clients' runtimes where they are written (src/client/runtime/): the TypeScript one
// compiles under tsc with the flags the generated modules are promised (its tsconfig.json), the
// Python one passes mypy --strict and ruff (the venv of scripts/python-lint/setup.sh, pinned). Each
// file's lines outside its "embedded" markers are what makes it whole for the checkers (the imports
// of a sibling file's names); the generated modules themselves are compiled and run by the other
// tests here. Without the venv the Python checks are skipped with one line; with CI=true they must run.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { embeddedPart, PYTHON_GRPC_RUNTIME, RUNTIME_CORE } from '../../src/client/runtime-text.js';
import { ROOT } from '../support/snapshot.js';
import { tempDir } from '../support/temp.js';

const RUNTIME = join(ROOT, 'src', 'client', 'runtime');
const VENV = process.env.PYLINT_VENV ?? join(ROOT, '.venv-pylint');
const havePylint = existsSync(join(VENV, 'bin', 'mypy')) && existsSync(join(VENV, 'bin', 'ruff'));
const pythonRuns = havePylint || process.env.CI === 'true';
if (!pythonRuns) console.log(`tritonc: the Python runtime's mypy --strict and ruff skipped: no ${VENV} (bash scripts/python-lint/setup.sh makes it)`);

const files = readdirSync(RUNTIME).sort();
const tsFiles = files.filter((f) => f.endsWith('.ts'));
const pyFiles = files.filter((f) => f.endsWith('.py'));

describe('the TypeScript runtime (src/client/runtime/*.ts)', () => {
  it('its tsconfig.json names every .ts file there, so none escapes the check', () => {
    // tsconfig.json may hold comments: the files list is read from its text.
    const config = readFileSync(join(RUNTIME, 'tsconfig.json'), 'utf8');
    const listed = [...config.matchAll(/"([\w-]+\.ts)"/g)].map((m) => m[1]).sort();
    expect(listed).toEqual(tsFiles);
    expect(tsFiles).toEqual(['client-core.ts', 'client-grpc.ts', 'client-http.ts']);
  });

  it('imports nothing of tritonc: only a sibling runtime file (checkers only) and @grpc/grpc-js, which the generated module imports too', () => {
    for (const f of tsFiles) {
      const specifiers = [...readFileSync(join(RUNTIME, f), 'utf8').matchAll(/(?:^|\n)\s*(?:import|export)[^'";]*?from\s+'([^']+)'/g)].map((m) => m[1]);
      for (const s of specifiers) expect(['./client-core.js', '@grpc/grpc-js'], `${f} imports ${s}`).toContain(s);
    }
  });

  it("compiles under tsc --strict and the generated modules' stricter flags", () => {
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const r = spawnSync(process.execPath, [tsc, '-p', join(RUNTIME, 'tsconfig.json'), '--pretty', 'false'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  }, 150_000);
});

describe('the Python runtime (src/client/runtime/*.py)', () => {
  it('imports only the standard library, numpy and a sibling runtime file (tritonclient by name, typed Any)', () => {
    const stdlib = new Set([
      '__future__',
      'dataclasses',
      'http',
      'importlib',
      'json',
      'math',
      'queue',
      'random',
      're',
      'socket',
      'sys',
      'threading',
      'time',
      'typing',
      'urllib',
      'weakref',
    ]);
    for (const f of pyFiles) {
      const modules = [...readFileSync(join(RUNTIME, f), 'utf8').matchAll(/^(?:import|from) ([\w.]+)/gm)].map((m) => m[1]!.split('.')[0]!);
      for (const m of modules) expect(stdlib.has(m) || m === 'numpy' || m === 'client_core', `${f} imports ${m}`).toBe(true);
    }
  });
});

describe.runIf(pythonRuns)('the Python runtime under its checkers', () => {
  it('passes mypy --strict', () => {
    expect(pyFiles).toEqual(['client_core.py', 'client_grpc.py', 'client_http.py']);
    const cache = tempDir('tritonc-mypy-');
    const r = spawnSync(join(VENV, 'bin', 'mypy'), ['--strict', '--no-color-output', '--cache-dir', cache, ...pyFiles], {
      cwd: RUNTIME,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
    });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`Success: no issues found in ${pyFiles.length} source files\n`);
    expect(r.status).toBe(0);
  }, 150_000);

  it('passes ruff (its ruff.toml there)', () => {
    const r = spawnSync(join(VENV, 'bin', 'ruff'), ['check', '--no-cache', '--output-format', 'concise', ...pyFiles], {
      cwd: RUNTIME,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.stdout + r.stderr).toBe('All checks passed!\n');
    expect(r.status).toBe(0);
  }, 90_000);
});

describe('the embedded part (src/client/runtime-text.ts)', () => {
  const file = [
    '// for the checker',
    "import { x } from './client-core.js';",
    '// ---- embedded in each generated client from the next line ----',
    'const a = x;',
    '',
    'export { a };',
    '// ---- embedded up to the line above ----',
    'export { x };',
    '',
  ].join('\n');

  it('is the lines between the markers, with the newlines that frame them, and nothing the checkers alone read', () => {
    expect(embeddedPart(file, '//', 'f.ts')).toBe('\nconst a = x;\n\nexport { a };\n');
    // What the generators join: the real files' parts, without their checker-only lines.
    expect(RUNTIME_CORE.startsWith('\n/** Every error the client throws.')).toBe(true);
    expect(RUNTIME_CORE).not.toContain('For the type checker');
    expect(PYTHON_GRPC_RUNTIME.startsWith('\nimport queue\n')).toBe(true);
    expect(PYTHON_GRPC_RUNTIME).not.toContain('from client_core import');
  });

  it('is the same from a checkout with CRLF line ends', () => {
    expect(embeddedPart(file.replace(/\n/g, '\r\n'), '//', 'f.ts')).toBe(embeddedPart(file, '//', 'f.ts'));
  });

  it('a file without both markers, in order, once each, is refused naming it', () => {
    const begin = '// ---- embedded in each generated client from the next line ----\n';
    const end = '// ---- embedded up to the line above ----\n';
    for (const bad of ['const a = 1;\n', begin + 'const a = 1;\n', 'x\n' + end + begin + 'y\n', begin + 'a\n' + end + begin + 'b\n' + end]) {
      expect(() => embeddedPart(bad, '//', 'client-x.ts')).toThrow(
        'tritonc: src/client/runtime/client-x.ts needs one begin and one end marker of the embedded part, in that order',
      );
    }
  });
});
