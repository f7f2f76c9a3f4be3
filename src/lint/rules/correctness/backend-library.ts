// The backend's library must be where core looks for it (src/triton/backend-library-search.ts: the version
// directory, the model directory, then the server's --backend-directory). Checked where the server's
// backend directory is known (--backend-directory, or `server.backendDirectory` in tritonc.config.json),
// or else where the target names NVIDIA's image (--triton-version 24.11-trtllm-python-py3), whose
// backends are known (src/triton/releases/flavours.ts): which backends a server has is not part of the
// repository.
import { quoteString } from '../../../pbtxt/scalars.js';
import { didYouMean } from '../../../pbtxt/suggest.js';
import { backendLibraryName, findBackendLibrary, type BackendLibrary } from '../../../triton/backend-library-search.js';
import { ENSEMBLE_PLATFORM, backendRecord } from '../../../triton/backend-records.js';
import { holdsIn } from '../../../triton/releases/catalog.js';
import { flavourHas, flavoursWith } from '../../../triton/releases/flavours.js';
import { modelName, settledBackend } from '../../backend.js';
import { escapes } from '../../relative-path.js';
import { defineModelRule } from '../../rule.js';

const messages = {
  noLibraryForBackend: `the server has no backend "{{backend}}": there is no {{library}} in {{backendPath}}, in the version directory or in the model directory, so Triton refuses the model ("unable to find backend library for backend '{{backend}}', try specifying runtime on the model configuration."); install the backend in {{backendPath}}, or put {{library}} in the model directory`,
  noLibraryForBackendDidYouMean: `the server has no backend "{{backend}}" (no {{library}} in {{backendPath}} or beside the model), so Triton refuses the model ("unable to find backend library for backend '{{backend}}', try specifying runtime on the model configuration."); did you mean backend: "{{suggestion}}"? The server's backend directory holds {{suggestion}}`,
  noRuntimeLibrary: `runtime "{{library}}" is in none of the places Triton looks for it, so Triton refuses the model ("unable to find backend library '{{library}}' for model '{{model}}', searched: {{searched}}"); put {{library}} in the model directory, or remove runtime to use the backend's own library`,
  noPythonBackendLibrary: `backend "{{backend}}" is a Python-based backend, which runs on the Python backend's {{library}}, and the server has none, so Triton refuses the model ("unable to find backend library '{{library}}' for model '{{model}}', searched: {{searched}}"); install the Python backend in {{pythonPath}}`,
  libraryEscapes: `{{library}} in {{dir}} leads out of that directory (a symbolic link to {{target}}), and Triton refuses a library named by runtime, or the Python backend's under a Python-based backend, that does ("backend library name '{{library}}' escapes backend directory '{{dir}}', for model '{{model}}', check model config runtime field"); copy the library into {{dir}} instead of linking it`,
  notInImage: `the {{image}} image has no backend "{{backend}}", so Triton refuses the model ("unable to find backend library for backend '{{backend}}', try specifying runtime on the model configuration."); serve it from {{others}}, or put {{library}} in the model directory`,
  noPythonBasedLibrary: `runtime "{{runtime}}" makes "{{backend}}" a Python-based backend, whose model.py Triton looks for at {{path}}, and there is none, so Triton refuses the model ("unable to find Python backend based backend library '{{runtime}}' for model '{{model}}', searched: '{{path}}'"); install the backend's model.py at {{path}}, or remove runtime`,
} as const;

/** core's "searched: " list: each path quoted, each followed by a space. */
const searchedList = (paths: readonly string[]): string => paths.map((p) => `'${p}' `).join('');

export const backendLibrary = defineModelRule({
  meta: {
    id: 'backend-library',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: false,
    description: "The backend's library must be in the server's backend directory or beside the model (with --backend-directory)",
    prevents: [
      "unable to find backend library for backend '<backend>', try specifying runtime on the model configuration.",
      "unable to find backend library '<library>' for model '<model>', searched: '<dir>' ...",
      "unable to find Python backend based backend library '<library>' for model '<model>', searched: '<path>'",
      "backend library name '<library>' escapes backend directory '<dir>', for model '<model>', check model config runtime field",
    ],
    messages,
  },
  check(ctx) {
    const backendDirectory = ctx.settings.server.backendDirectory;
    const target = ctx.settings.server.target;
    if (!backendDirectory && !target.flavour) return;
    const settled = settledBackend(ctx);
    const { backend, platform } = settled;
    if (settled.unknown || !backend || platform === ENSEMBLE_PLATFORM) return;
    const runtime = settled.config.runtime ?? '';
    if (!backendDirectory) {
      // The image's backends: only a backend of NVIDIA's that the image lacks, by its own name, and no
      // library of it beside the model (core looks there first).
      const flavour = target.flavour!;
      if (runtime || flavourHas(flavour, backend, target.release) !== false || ctx.model.filesElsewhere()) return;
      // A backend the release no longer builds is platform-backend's (backendDropped).
      if (!holdsIn(backendRecord(backend)?.releases, target.release)) return;
      const library = backendLibraryName(backend);
      const dirs = [ctx.model.dir, ...ctx.model.versions(settled.config).map((v) => v.path)];
      if (dirs.some((d) => ctx.files.kind(`${d}/${library}`) !== undefined)) return;
      const image = `nvcr.io/nvidia/tritonserver:${target.release.container}-${flavour.tag}`;
      const others = flavoursWith(backend, target.release).map((f) => `nvcr.io/nvidia/tritonserver:${target.release.container}-${f.tag}`);
      const at = { path: ctx.config.backend ? ['backend'] : ctx.config.platform ? ['platform'] : [] };
      // Every backend NVIDIA ships is in some image of a release that builds it.
      ctx.report({ ...at, messageId: 'notInImage', data: { image, backend, others: others.join(' or '), library } });
      return;
    }
    // A runtime that leaves its directory is platform-backend's finding.
    if (runtime && escapes(runtime)) return;
    const versions = ctx.model.versions(settled.config);
    const elsewhere = ctx.model.filesElsewhere();
    const files = { exists: (p: string): boolean => ctx.files.kind(p) !== undefined, realpath: (p: string): string => ctx.files.realpath(p) };
    let missing: BackendLibrary | undefined;
    for (const v of versions) {
      const found = findBackendLibrary({ modelDir: ctx.model.dir, version: v.version!, backendDirectory, backend, runtime }, files);
      if (found.kind !== 'found') {
        missing = found;
        break;
      }
    }
    // A library beside the model may be among the files provisioned elsewhere.
    if (!missing || elsewhere) return;
    const model = modelName(ctx);
    const backendPath = `${backendDirectory}/${backend}`;
    const at = { path: runtime ? ['runtime'] : ctx.config.backend ? ['backend'] : ctx.config.platform ? ['platform'] : [] };
    switch (missing.kind) {
      case 'noLibraryForBackend': {
        const installed = ctx.files.names(backendDirectory).filter((n) => ctx.files.kind(`${backendDirectory}/${n}`) === 'dir');
        const suggestion = didYouMean(backend, installed);
        const data = { backend, library: backendLibraryName(backend), backendPath };
        if (suggestion && ctx.config.backend) {
          ctx.report({
            path: ['backend'],
            messageId: 'noLibraryForBackendDidYouMean',
            data: { ...data, suggestion },
            suggest: [{ description: `set backend: "${suggestion}"`, edits: [ctx.edits.replaceValue(['backend'], quoteString(suggestion))] }],
          });
        } else {
          ctx.report({ ...at, messageId: 'noLibraryForBackend', data });
        }
        return;
      }
      case 'noLibrary':
        if (!missing.pythonBased)
          ctx.report({ ...at, messageId: 'noRuntimeLibrary', data: { library: missing.library, model, searched: searchedList(missing.searched) } });
        else
          ctx.report({
            ...at,
            messageId: 'noPythonBackendLibrary',
            data: { backend, library: missing.library, model, searched: searchedList(missing.searched), pythonPath: missing.searched.at(-1)! },
          });
        return;
      case 'escapes':
        ctx.report({
          ...at,
          messageId: 'libraryEscapes',
          data: { library: missing.library, dir: missing.dir, model, target: ctx.files.realpath(missing.path) },
        });
        return;
      case 'noPythonBasedLibrary':
        ctx.report({ ...at, messageId: 'noPythonBasedLibrary', data: { runtime: missing.library, backend, model, path: missing.searched[0]! } });
    }
  },
});
