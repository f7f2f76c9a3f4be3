// The generated clients' runtimes: written as real files in src/client/runtime/ (checked there by tsc
// --strict, mypy --strict and ruff: test/client/runtime-check.test.ts) and carried here as their text.
// A `?raw` import is a file's text, inlined by esbuild (scripts/build.mjs, the plugin raw-text) and by
// vite under vitest. Each file's lines between its two "embedded" markers go into a generated module;
// the lines outside them are for the checkers alone (the imports of a sibling file's names, which a
// generated module has in one scope with them).
import coreTs from './runtime/client-core.ts?raw';
import grpcTs from './runtime/client-grpc.ts?raw';
import httpTs from './runtime/client-http.ts?raw';
import corePy from './runtime/client_core.py?raw';
import grpcPy from './runtime/client_grpc.py?raw';
import httpPy from './runtime/client_http.py?raw';

/** The embedded part of a runtime file: from the newline that ends its begin marker to the one that ends its last line. */
export function embeddedPart(text: string, comment: '//' | '#', file: string): string {
  // A checkout that turned line ends into CRLF (git's autocrlf) gives the same module.
  const lf = text.replace(/\r\n/g, '\n');
  const begin = `${comment} ---- embedded in each generated client from the next line ----\n`;
  const end = `\n${comment} ---- embedded up to the line above ----\n`;
  const from = lf.indexOf(begin);
  const to = lf.indexOf(end);
  if (from < 0 || to < from || lf.indexOf(begin, from + 1) >= 0 || lf.indexOf(end, to + 1) >= 0) {
    throw new Error(`tritonc: src/client/runtime/${file} needs one begin and one end marker of the embedded part, in that order`);
  }
  return lf.slice(from + begin.length - 1, to + 1);
}

/** The TypeScript runtime every module carries: checks, split, retries, errors (client-core.ts). */
export const RUNTIME_CORE = embeddedPart(coreTs, '//', 'client-core.ts');
/** The KServe v2 HTTP transport over fetch (client-http.ts). */
export const HTTP_RUNTIME = embeddedPart(httpTs, '//', 'client-http.ts');
/** The KServe v2 gRPC transport over @grpc/grpc-js (client-grpc.ts); the module imports grpc in its header. */
export const GRPC_RUNTIME = embeddedPart(grpcTs, '//', 'client-grpc.ts');
/** The Python runtime every module carries (client_core.py). */
export const PYTHON_RUNTIME_CORE = embeddedPart(corePy, '#', 'client_core.py');
/** The HTTP transport on tritonclient.http (client_http.py). */
export const PYTHON_HTTP_RUNTIME = embeddedPart(httpPy, '#', 'client_http.py');
/** The gRPC transport on tritonclient.grpc (client_grpc.py). */
export const PYTHON_GRPC_RUNTIME = embeddedPart(grpcPy, '#', 'client_grpc.py');
