// Optional packages (onnxruntime-node, the object-storage clients) are loaded with require, not
// import(): the CLI bundle runs as a vm.Script (for V8's code cache), where import() has no module
// loader to call. Node looks under tritonc's own directory; a global install (npm install -g, and
// pre-commit's additional_dependencies) puts them beside tritonc instead, in the node_modules
// directory that holds tritonc, so that is looked at too.
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** True when `e` says the package `pkg` itself is not installed (not one of its own imports failing). */
export function isMissingModule(e: unknown, pkg: string): boolean {
  const err = e as NodeJS.ErrnoException | null;
  return (err?.code === 'ERR_MODULE_NOT_FOUND' || err?.code === 'MODULE_NOT_FOUND') && String(err.message).includes(pkg);
}

export function requireOptional<T>(pkg: string): T {
  const require = createRequire(import.meta.url);
  try {
    return require(pkg) as T;
  } catch (e) {
    const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
    if (!isMissingModule(e, pkg) || basename(dirname(packageRoot)) !== 'node_modules') throw e;
    return require(require.resolve(pkg, { paths: [dirname(packageRoot)] })) as T;
  }
}
