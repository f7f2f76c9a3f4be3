// The import directions docs/architecture.md says must never occur, checked on the source.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { git, ROOT } from './support/snapshot.js';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Each source file's layer (its folder under src/) and the repository paths it imports. */
const files = sources(SRC).map((file) => {
  const text = readFileSync(file, 'utf8');
  // Static imports and exports, and dynamic import('./...'): a module loaded on first use is still a dependency.
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+'(\.[^']+)'/g), ...text.matchAll(/\bimport\(\s*'(\.[^']+)'\s*\)/g)];
  const imports = specifiers.map((m) => relative(ROOT, resolve(dirname(file), m[1]!)));
  return { file: relative(ROOT, file), layer: relative(SRC, file).split('/')[0]!, imports };
});
const layerOf = (path: string): string | undefined => (path.startsWith('src/') ? path.split('/')[1] : path.split('/')[0]);

function violations(from: (layer: string) => boolean, to: (layer: string) => boolean): string[] {
  return files.filter((f) => from(f.layer)).flatMap((f) => f.imports.filter((i) => to(layerOf(i) ?? '')).map((i) => `${f.file} imports ${i}`));
}

/** The model file readers: each reads one format into model-file/'s signature, and knows nothing else of tritonc. */
const READERS = new Set(['onnx', 'openvino', 'pytorch', 'savedmodel', 'python-model']);
const FACTS = new Set([
  'pbtxt',
  'model-readers',
  'onnx',
  'openvino',
  'pytorch',
  'savedmodel',
  'python-model',
  'model-file',
  'config',
  'triton',
  'repo',
  'workspace',
  'remote',
  'generate',
  'deployment',
]);
const CONSUMERS = new Set(['lint', 'report', 'verify', 'watch', 'lsp', 'cli', 'client', 'deploy']);

describe('architecture (docs/architecture.md)', () => {
  it('reads the imports of every source file', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.find((f) => f.file === 'src/cli/main.ts')!.imports).toContain('src/cli/commands.js');
  });
  it('nothing imports cli/: the command line is its own entry (tritonc/cli)', () =>
    expect(
      violations(
        (l) => l !== 'cli',
        (l) => l === 'cli',
      ),
    ).toEqual([]));
  it('readers import only their own folder, model-file/ and util/; model-file/ none of them; model-readers/ picks one; util/ nothing', () => {
    for (const reader of READERS)
      expect(
        violations(
          (l) => l === reader,
          (l) => ![reader, 'model-file', 'util'].includes(l),
        ),
        reader,
      ).toEqual([]);
    expect(
      violations(
        (l) => l === 'model-file',
        (l) => !['model-file', 'util'].includes(l),
      ),
    ).toEqual([]);
    expect(
      violations(
        (l) => l === 'model-readers',
        (l) => !['model-readers', 'model-file', 'util'].includes(l) && !READERS.has(l),
      ),
    ).toEqual([]);
    expect(
      violations(
        (l) => l === 'util',
        (l) => l !== 'util',
      ),
    ).toEqual([]);
  });
  it('the fact layers never import the consumers', () =>
    expect(
      violations(
        (l) => FACTS.has(l),
        (l) => CONSUMERS.has(l),
      ),
    ).toEqual([]));
  it('none of the directions the folders forbid (docs/architecture.md)', () => {
    const forbidden: [string, string[]][] = [
      ['pbtxt', ['config', 'onnx', 'triton', 'repo', 'workspace']],
      ['onnx', ['pbtxt', 'config']],
      ['config', ['triton', 'repo', 'workspace', 'generate']],
      ['triton', ['lint', 'generate', 'workspace']],
      ['repo', ['lint', 'workspace']],
      ['workspace', ['lint', 'remote']],
      ['remote', ['pbtxt', 'config', 'triton', 'generate']],
      ['lint', ['cli', 'report', 'generate']],
      ['generate', ['lint']],
      ['deployment', ['lint', 'workspace', 'generate']],
    ];
    for (const [from, to] of forbidden)
      expect(
        violations(
          (l) => l === from,
          (l) => to.includes(l),
        ),
        from,
      ).toEqual([]);
  });
  it('report/ depends only on diagnostics.ts (and util/)', () => {
    expect(
      violations(
        (l) => l === 'report',
        (l) => !['report', 'diagnostics.js', 'util'].includes(l),
      ),
    ).toEqual([]);
  });
  it('no import circles', () => {
    const graph = new Map(files.map((f) => [f.file.replace(/\.ts$/, '.js'), f.imports]));
    const state = new Map<string, 'open' | 'done'>();
    const circles: string[] = [];
    const visit = (node: string, trail: string[]): void => {
      if (state.get(node) === 'done') return;
      if (state.get(node) === 'open') return void circles.push([...trail.slice(trail.indexOf(node)), node].join(' -> '));
      state.set(node, 'open');
      for (const next of graph.get(node) ?? []) if (graph.has(next)) visit(next, [...trail, node]);
      state.set(node, 'done');
    };
    for (const node of graph.keys()) visit(node, []);
    expect(circles).toEqual([]);
  });
  it('no folder imports form a loop: each folder of src/ depends on the ones below it only', () => {
    // Folder-level edges (a file of src/<a>/ importing one of src/<b>/), then every cycle among them: a
    // strongly connected set of folders (Tarjan), named with one import per edge so the fix is plain.
    const edges = new Map<string, Map<string, string>>();
    for (const f of files) {
      for (const i of f.imports) {
        const to = layerOf(i);
        if (!i.startsWith('src/') || to === undefined || to === f.layer || !i.slice(4).includes('/')) continue;
        const out = edges.get(f.layer) ?? new Map<string, string>();
        if (!out.has(to)) out.set(to, `${f.file} imports ${i}`);
        edges.set(f.layer, out);
      }
    }
    expect(edges.get('lint')?.has('triton')).toBe(true);
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const loops: string[][] = [];
    const connect = (v: string): void => {
      index.set(v, index.size);
      low.set(v, index.get(v)!);
      stack.push(v);
      for (const w of edges.get(v)?.keys() ?? []) {
        if (!index.has(w)) {
          connect(w);
          low.set(v, Math.min(low.get(v)!, low.get(w)!));
        } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
      if (low.get(v) !== index.get(v)) return;
      const loop = stack.splice(stack.indexOf(v));
      if (loop.length > 1) loops.push(loop);
    };
    for (const v of edges.keys()) if (!index.has(v)) connect(v);
    const described = loops.map((loop) =>
      loop.flatMap((a) => loop.filter((b) => edges.get(a)?.has(b)).map((b) => `${a} -> ${b} (${edges.get(a)!.get(b)!})`)).join('\n'),
    );
    expect(described).toEqual([]);
  });
  it('no rule imports another rule: what rules share lives in src/lint/ helpers or src/triton/', () => {
    const rules = files.filter((f) => f.file.startsWith('src/lint/rules/') && !f.file.endsWith('/index.ts'));
    expect(rules.flatMap((f) => f.imports.filter((i) => i.startsWith('src/lint/rules/')).map((i) => `${f.file} imports ${i}`))).toEqual([]);
  });
  it('report/ imports neither verify/, watch/ nor cli/; verify/ and watch/ not each other', () => {
    expect(
      violations(
        (l) => l === 'report',
        (l) => ['verify', 'watch', 'cli'].includes(l),
      ),
    ).toEqual([]);
    expect(
      violations(
        (l) => l === 'verify',
        (l) => l === 'watch',
      ),
    ).toEqual([]);
    expect(
      violations(
        (l) => l === 'watch',
        (l) => l === 'verify',
      ),
    ).toEqual([]);
  });
  it('no rule reads the disk: rules get files and listings from the engine (ctx.files, ctx.model.layout())', () => {
    const disk = new Set([
      'src/util/path-kind.js',
      'src/util/read-text.js',
      'src/repo/tree.js',
      'src/workspace/sources.js',
      'src/workspace/workspace.js',
      'src/onnx/reader.js',
    ]);
    const rules = files.filter((f) => f.file.startsWith('src/lint/rules/'));
    expect(rules.length).toBeGreaterThan(25);
    const readers = rules.filter((f) => /from '(node:)?fs(\/promises)?'/.test(readFileSync(join(ROOT, f.file), 'utf8')) || f.imports.some((i) => disk.has(i)));
    expect(readers.map((f) => f.file)).toEqual([]);
  });
  it("no platform name or default model file is spelled outside src/triton: they are the backend records' (src/triton/backend-records.ts)", async () => {
    const { BACKEND_RECORDS } = await import('../src/triton/backend-records.js');
    const names = BACKEND_RECORDS.flatMap((b) => [
      ...b.platforms.flatMap((p) => [p.name, p.defaultModelFile, ...(p.aliases ?? [])]),
      ...(b.defaultModelFile ? [b.defaultModelFile] : []),
    ]);
    expect(names).toContain('model.onnx');
    expect(names).toContain('tensorrt_plan');
    const spelled = files
      .filter((f) => f.layer !== 'triton')
      .flatMap((f) => {
        const text = readFileSync(join(ROOT, f.file), 'utf8');
        return names.filter((n) => text.includes(`'${n}'`) || text.includes(`"${n}"`)).map((n) => `${f.file}: '${n}'`);
      });
    expect(spelled).toEqual([]);
    // The ensemble "platform" too: compared with ENSEMBLE_PLATFORM or isEnsemble(config), never spelled.
    const compared = files
      .filter((f) => f.layer !== 'triton')
      .filter((f) => /[=!]==?\s*['"]ensemble['"]|=\s*['"]ensemble['"];/.test(readFileSync(join(ROOT, f.file), 'utf8')))
      .map((f) => f.file);
    expect(compared).toEqual([]);
  });
  it('the command line never casts or re-coerces a parsed flag: each is declared once, typed (cli/command.ts defineCommand)', () => {
    const cli = files
      .filter((f) => f.layer === 'cli')
      .map((f) => ({ file: f.file, source: ts.createSourceFile(f.file, readFileSync(join(ROOT, f.file), 'utf8'), ts.ScriptTarget.Latest, true) }));
    // The types of parsed flags: yargs' own, and every alias src/cli makes of a builder's (FlagsOf<typeof xFlags>).
    const flagTypes = new Set(['ArgumentsCamelCase']);
    for (const { source } of cli) {
      source.forEachChild(function visit(n): void {
        if (ts.isTypeAliasDeclaration(n) && /\bFlagsOf</.test(n.type.getText(source))) flagTypes.add(n.name.text);
        n.forEachChild(visit);
      });
    }
    const holdsFlags = (p: ts.ParameterDeclaration, source: ts.SourceFile): boolean => {
      if (p.type)
        return /^Record<string, unknown>$/.test(p.type.getText(source)) || [...flagTypes].some((t) => new RegExp(`\\b${t}\\b`).test(p.type!.getText(source)));
      // A command's runner written in place (`run: (a, io) => ...`): its first parameter is the parsed flags.
      const fn = p.parent;
      return (
        (ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) &&
        fn.parameters[0] === p &&
        ts.isPropertyAssignment(fn.parent) &&
        fn.parent.name.getText(source) === 'run'
      );
    };
    const found: string[] = [];
    for (const { file, source } of cli) {
      const holders = new Set<string>();
      source.forEachChild(function collect(n): void {
        if (ts.isParameter(n) && ts.isIdentifier(n.name) && holdsFlags(n, source)) holders.add(n.name.text);
        n.forEachChild(collect);
      });
      // `a`, `a.flag`, `a['flag']`, `a[name]`: a parsed flag, or all of them.
      const isFlag = (e: ts.Expression): boolean => {
        let x = e;
        while (ts.isParenthesizedExpression(x) || ts.isNonNullExpression(x)) x = x.expression;
        if (ts.isPropertyAccessExpression(x) || ts.isElementAccessExpression(x)) x = x.expression;
        return ts.isIdentifier(x) && holders.has(x.text);
      };
      source.forEachChild(function visit(n): void {
        const at = `${file}:${source.getLineAndCharacterOfPosition(n.getStart(source)).line + 1}: ${n.getText(source).slice(0, 80)}`;
        if ((ts.isAsExpression(n) || ts.isTypeAssertionExpression(n)) && isFlag(n.expression) && !ts.isConstTypeReference(n.type)) found.push(at);
        if (
          ts.isCallExpression(n) &&
          ts.isIdentifier(n.expression) &&
          ['String', 'Number', 'Boolean'].includes(n.expression.text) &&
          n.arguments.length === 1 &&
          isFlag(n.arguments[0]!)
        )
          found.push(at);
        n.forEachChild(visit);
      });
    }
    // The one bridge from the erased list main.ts iterates over to a command's typed runner: the arguments
    // it passes are those the command's own builder parsed, and main.ts refuses a one-value flag given twice.
    const ALLOWED = ['src/cli/command.ts: args as ArgumentsCamelCase<T>'];
    expect(
      found.map((f) => f.replace(/:\d+:/, ':')).filter((f) => !ALLOWED.includes(f)),
      found.join('\n'),
    ).toEqual([]);
    expect(found.length, 'the allowed cast is still there: remove it from ALLOWED when it goes').toBe(ALLOWED.length);
    expect(flagTypes.has('VerifyArgs') && flagTypes.has('LintCliOptions')).toBe(true);
  });
  it('configs are read through at most three exported parse functions (parseConfig, the pbtxt parser, its fast path)', () => {
    const names = new Set(
      files
        .filter((f) => f.layer === 'config' || f.layer === 'pbtxt')
        .flatMap((f) => [...readFileSync(join(ROOT, f.file), 'utf8').matchAll(/^export (?:async )?function (parse\w*)/gm)].map((m) => m[1]!)),
    );
    expect([...names].sort()).toEqual(['parseCleanText', 'parseConfig', 'parseText']);
  });
  it('no source file imports test/ or fixtures/', () =>
    expect(
      violations(
        () => true,
        (l) => l === 'test' || l === 'fixtures',
      ),
    ).toEqual([]));
  it('no file of the repository refers to a path outside it', () => {
    const tracked = git(ROOT, 'ls-files', '-z', '--cached', '--others', '--exclude-standard').split('\0').filter(Boolean);
    // The test support that locates the optional corpus is the one place allowed to look beside the clone
    // for it; Triton's backends built for the tests' tritonserver (../shared/triton-backends, laid out by
    // scripts/real-triton/setup.sh) may be named, never the gathered reference facts.
    const allowed = new Set(['test/support/corpus-location.ts', 'test/architecture.test.ts']);
    const outside = tracked
      .filter((f) => !allowed.has(f) && /\.(ts|mjs|js|md|json|py|yaml|proto)$/.test(f) && f !== 'package-lock.json')
      .filter((f) => {
        try {
          return /\.\.\/shared\b(?!\/triton-backends\b)|shared\/(reference|corpus|DESIGN)|DESIGN\.md|triton-rules\.md|onnx-notes\.md/.test(
            readFileSync(join(ROOT, f), 'utf8'),
          );
        } catch {
          return false;
        }
      });
    expect(outside).toEqual([]);
  });
  // issue 44: rules read facts (ModelFacts, ctx.signature, src/triton), never the layers that make them.
  it('rules never import src/repo, src/workspace or a model file reader: what they need is a fact (ModelFacts) or src/triton', () => {
    const rules = files.filter((f) => f.file.startsWith('src/lint/rules/'));
    expect(rules.length).toBeGreaterThan(25);
    const crossing = rules.flatMap((f) =>
      f.imports.filter((i) => ['repo', 'workspace', ...READERS].includes(layerOf(i) ?? '')).map((i) => `${f.file} imports ${i}`),
    );
    expect(crossing).toEqual([]);
  });
  it("repo/ never imports triton/: the layout is read before Triton's rules apply to it", () => {
    expect(
      violations(
        (l) => l === 'repo',
        (l) => l === 'triton',
      ),
    ).toEqual([]);
  });
  it('no backend or platform name is compared outside src/triton: code asks the backend records (src/triton/backend-records.ts)', async () => {
    const { BACKEND_RECORDS, ENSEMBLE_PLATFORM } = await import('../src/triton/backend-records.js');
    const names = [...new Set([...BACKEND_RECORDS.flatMap((b) => [b.name, ...b.platforms.flatMap((p) => [p.name, ...(p.aliases ?? [])])]), ENSEMBLE_PLATFORM])];
    expect(names).toEqual(expect.arrayContaining(['onnxruntime', 'python', 'vllm', 'tensorrtllm', 'dali', 'onnxruntime_onnx', 'libtorch']));
    const alternatives = names.map((n) => n.replace(/[^a-z0-9_]/g, '')).join('|');
    // `x === 'name'`, `'name' !== x`, `case 'name':`.
    const comparison = new RegExp(
      `[=!]==?\\s*['"](?:${alternatives})['"]|['"](?:${alternatives})['"]\\s*[=!]==?|\\bcase\\s+['"](?:${alternatives})['"]\\s*:`,
      'g',
    );
    // None: where the same words named something else (a shape mode, a TensorRT-LLM runtime, a model
    // format, a client language), those are spelled as what they do or read from their own records.
    const allowed: Record<string, number> = {};
    const counted = Object.fromEntries(
      files
        .filter((f) => f.layer !== 'triton')
        .map((f) => [f.file, [...readFileSync(join(ROOT, f.file), 'utf8').matchAll(comparison)].length] as const)
        .filter(([, n]) => n > 0),
    );
    expect(counted).toEqual(allowed);
  });
});
