// Compiles generated clients (and the files that use them) as a user's `tsc --strict` would, with the
// stricter flags on top, in one program (one type-check of the libraries, which costs seconds), and
// emits JavaScript the tests import. Returns each file's diagnostics, so a file that must not
// compile (a Float64Array where the config says TYPE_FP32) is checked in the same pass.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT } from './snapshot.js';

type Ts = typeof import('typescript');
const ts = createRequire(import.meta.url)('typescript') as Ts;

/** The flags every generated client must compile under: tsc --strict and the stricter checks users turn on. */
export const STRICT_FLAGS = [
  '--strict',
  '--noUncheckedIndexedAccess',
  '--exactOptionalPropertyTypes',
  '--noUnusedLocals',
  '--noUnusedParameters',
  '--noImplicitOverride',
  '--noImplicitReturns',
  '--target',
  'es2022',
  '--module',
  'nodenext',
];

export interface Compiled {
  /** Diagnostics by file name (relative to the directory), as tsc prints them. */
  errors: Record<string, string[]>;
  outDir: string;
}

export function compileClients(dir: string, files: readonly string[]): Compiled {
  const outDir = join(dir, 'out');
  const options: import('typescript').CompilerOptions = {
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    noUnusedLocals: true,
    noUnusedParameters: true,
    noImplicitOverride: true,
    noImplicitReturns: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: ['node'],
    typeRoots: [join(ROOT, 'node_modules', '@types')],
    outDir,
    skipLibCheck: true,
  };
  const program = ts.createProgram(
    files.map((f) => join(dir, f)),
    options,
  );
  const emitted = program.emit();
  const errors: Record<string, string[]> = {};
  for (const d of [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics]) {
    const file = d.file ? d.file.fileName.slice(dir.length + 1) : '(global)';
    const at = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
    (errors[file] ??= []).push(`${file}:${at}: TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
  }
  return { errors, outDir };
}
