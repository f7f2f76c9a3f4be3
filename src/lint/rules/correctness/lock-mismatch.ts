// tritonc.lock.json against the model files it records: where the weights are present, the version
// Triton loads must still be what the lock says (file, size, weight bytes, ONNX signature), or a
// --configs-only run elsewhere checks the configs against a model that is no longer deployed.
import { dirname, join, relative } from 'node:path';
import { locateModelFile } from '../../../triton/model-file-location.js';
import { defineModelRule, type RuleFiles } from '../../rule.js';
import { isEnsemble } from '../../../triton/backend-records.js';

export const lockMismatch = defineModelRule({
  meta: {
    id: 'lock-mismatch',
    category: 'correctness',
    defaultSeverity: 'warning',
    requiresModel: false,
    description: 'tritonc.lock.json must record the model files as they are',
    prevents: [],
    messages: {
      staleFile:
        "tritonc.lock.json no longer matches version {{version}} of '{{model}}': the model file is {{file}}, the lock has {{lockedFile}}; refresh it with tritonc lock {{repository}} (CI: tritonc lock --check)",
      staleIo:
        "tritonc.lock.json no longer matches version {{version}} of '{{model}}': its inputs or outputs differ from the lock; refresh it with tritonc lock {{repository}} (CI: tritonc lock --check)",
      staleWeights:
        "tritonc.lock.json no longer matches version {{version}} of '{{model}}': its weights or opsets differ from the lock; refresh it with tritonc lock {{repository}} (CI: tritonc lock --check)",
      staleSize:
        "tritonc.lock.json no longer matches version {{version}} of '{{model}}': its size is {{size}} bytes, the lock has {{lockedSize}}; refresh it with tritonc lock {{repository}} (CI: tritonc lock --check)",
      notLocked:
        "version {{version}} of '{{model}}' ({{file}}) is not in tritonc.lock.json, so a --configs-only check cannot see it; refresh the lock with tritonc lock {{repository}}",
    },
  },
  check(ctx) {
    const locked = ctx.model.locked();
    if (!locked) return;
    const filled = ctx.model.autofill(ctx.config);
    if (filled.problem || isEnsemble(ctx.config)) return;
    const file = locateModelFile(ctx.model.layout(), filled.config, (p) => ctx.files.kind(p));
    // No file: version-dirs says so. An unreadable ONNX file: model-unreadable does.
    if (!file.path || file.version === undefined || ctx.modelError) return;
    const version = String(file.version);
    const repository = dirname(ctx.model.dir);
    const data = { version, model: ctx.model.name, repository, file: relative(ctx.model.dir, file.path) };
    // The signature is set where tritonc reads this format (what lock wrote a signature for).
    const difference = ctx.model.lockDrift(version, {
      file: relative(ctx.model.dir, file.path),
      size: sizeOf(ctx.files, file.path),
      ...(ctx.signature ? { signature: ctx.signature } : {}),
    });
    if (difference === 'not-locked') {
      ctx.report({ path: ['name'], messageId: 'notLocked', data });
      return;
    }
    if (!difference) return;
    if (difference.kind === 'file') ctx.report({ path: ['name'], messageId: 'staleFile', data: { ...data, ...difference } });
    else if (difference.kind === 'size') ctx.report({ path: ['name'], messageId: 'staleSize', data: { ...data, ...difference } });
    else ctx.report({ path: ['name'], messageId: difference.kind === 'io' ? 'staleIo' : 'staleWeights', data: { ...data, ...difference } });
  },
});

/** A file's size, or a directory's total (a SavedModel's model.savedmodel/), as tritonc lock writes it (lock-build.ts sizeOf). */
function sizeOf(files: RuleFiles, path: string): number {
  // A file, or a model stood in from the lock (a directory one too) has a size of its own.
  const own = files.size(path);
  if (own !== undefined || files.kind(path) !== 'dir') return own ?? 0;
  return files.names(path).reduce((n, name) => n + sizeOf(files, join(path, name)), 0);
}
