// platform / backend as Triton core settles them (core src/model_config_utils.cc AutoCompleteBackendFields and
// ValidateModelConfig, ModelLifeCycle::CreateModel): core first fills
// backend, platform and default_model_filename from what the config says and from the files in the
// first sub-directory of the model directory (AutoCompleteBackendFields), then refuses an unknown
// platform without a backend, a backend on an ensemble, and a known backend paired with a platform
// of another framework. `runtime` (the backend library) must stay inside the directory it is found in.
import { quoteString } from '../../../pbtxt/scalars.js';
import { didYouMean } from '../../../pbtxt/suggest.js';
import { defineModelRule, type ModelContext } from '../../rule.js';
import { modelName, settledBackend, type SettledBackend } from '../../backend.js';
import { escapes } from '../../relative-path.js';
import { libraryBesideModel } from '../../../triton/backend-library-search.js';
import { holdsIn, releaseBefore } from '../../../triton/releases/catalog.js';
import { targetLabel } from '../../../triton/releases/target.js';
import { ENSEMBLE_PLATFORM, KNOWN_BACKENDS } from '../../../triton/backend-records.js';
import {
  PLATFORM_NAMES,
  TENSORFLOW,
  backendOfExtension,
  backendRecord,
  backendTypeOf,
  platformBackendType,
  platformOfBackend,
  platformRecord,
} from '../../../triton/backend-records.js';

const messages = {
  misspeltBackend: `backend "{{backend}}" is not a backend Triton has; did you mean "{{suggestion}}"? Triton finds no library for it and refuses the model ("unable to find backend library for backend '{{backend}}', try specifying runtime on the model configuration."); set backend: "{{suggestion}}", or, for a custom backend of that name, put its libtriton_{{backend}}.so in the model's version directory or the model directory (or the server's backend directory)`,
  noModelFileRecognized: `neither platform nor backend is set and Triton finds no model file it recognizes, so it refuses the model ("Invalid model name: Could not determine backend for model '{{model}}' with no backend in model configuration. Expected model name of the form 'model.<backend_name>'."); Triton found no model file it recognizes in version directory '{{versionDir}}' (it looks only in the first sub-directory by name). Put the model at {{modelAt}}/model.onnx, or set backend (e.g. backend: "onnxruntime") in config.pbtxt`,
  noVersionDirectoryToInfer: `neither platform nor backend is set and the model directory has no version directory for Triton to infer the backend from, so Triton refuses the model ("Invalid model name: Could not determine backend for model '{{model}}' with no backend in model configuration. Expected model name of the form 'model.<backend_name>'."); add 1/model.onnx (or the model file of your backend), or set backend (e.g. backend: "onnxruntime")`,
  ensembleWithBackend: `an ensemble is run by Triton itself, not by a backend, so backend "{{backend}}" is refused ("Ensemble model '{{name}}' must have platform type 'ensemble' and empty backend type"); remove backend`,
  platformBackendMismatch: `platform "{{platform}}" is not a platform of the {{backend}} backend, so Triton refuses the pair ("unexpected 'platform' and 'backend' pair, got:{{platform}}, {{backend}}"); set platform: "{{suggestion}}" or remove platform (Triton fills it from backend)`,
  platformAliasBackendMismatch: `platform "{{platform}}" is not a platform of the {{backend}} backend ('{{platform}}' is only an alias auto-fill accepts; the pair check wants '{{platformName}}'), so Triton refuses the pair ("unexpected 'platform' and 'backend' pair, got:{{platform}}, {{backend}}"); set platform: "{{suggestion}}" or remove platform (Triton fills it from backend)`,
  // The backend auto-fill took from the alias: removing platform would leave neither, so no such advice.
  platformAliasBackendMismatchFilled: `platform "{{platform}}" is not a platform of the {{backend}} backend ('{{platform}}' is only an alias auto-fill accepts; the pair check wants '{{platformName}}'), so Triton refuses the pair ("unexpected 'platform' and 'backend' pair, got:{{platform}}, {{backend}}"); set platform: "{{suggestion}}"`,
  tensorflowNeedsPlatform: `backend "{{backend}}" needs a platform Triton cannot infer here, so Triton refuses the pair ("unexpected 'platform' and 'backend' pair, got:{{platform}}, {{backend}}"); set platform: {{platforms}}`,
  tensorflowNeedsPlatformNoVersionDir: `backend "{{backend}}" needs a platform Triton cannot infer here (the model directory has no version directory to look in), so Triton refuses the pair ("unexpected 'platform' and 'backend' pair, got:{{platform}}, {{backend}}"); set platform: {{platforms}}`,
  platformNotInRelease: `platform "{{platform}}" came in Triton {{since}}, so Triton {{release}} does not know it and, with no backend set, refuses the model ("unexpected platform type '{{platform}}' for {{name}}"); judge against {{since}} or later (--triton-version), or use a platform this release has`,
  platformNotInReleasePair: `platform "{{platform}}" came in Triton {{since}}, so Triton {{release}} does not pair it with the {{backend}} backend and refuses the model ("unexpected 'platform' and 'backend' pair, got:{{platform}}, {{backend}}"); judge against {{since}} or later (--triton-version), or set platform: "{{suggestion}}"`,
  unknownPlatform: `platform "{{platform}}" is not a platform Triton knows and no backend is set, so Triton refuses the model ("unexpected platform type '{{platform}}' for {{name}}"); use one of {{platforms}}, or set backend to the backend that serves it`,
  unknownPlatformDidYouMean: `platform "{{platform}}" is not a platform Triton knows and no backend is set, so Triton refuses the model ("unexpected platform type '{{platform}}' for {{name}}"); did you mean platform: "{{suggestion}}"? Or set backend`,
  unknownPlatformIsBackend: `platform "{{platform}}" is not a platform Triton knows and no backend is set, so Triton refuses the model ("unexpected platform type '{{platform}}' for {{name}}"); '{{platform}}' is a backend, not a platform: write backend: "{{platform}}" (or platform: "{{backendPlatform}}")`,
  unknownPlatformIsBackendOnly: `platform "{{platform}}" is not a platform Triton knows and no backend is set, so Triton refuses the model ("unexpected platform type '{{platform}}' for {{name}}"); '{{platform}}' is a backend, not a platform: write backend: "{{platform}}"`,
  filenameNamesNoBackend: `default_model_filename "{{filename}}" does not tell Triton the backend (only the default names such as model.onnx or model.plan do) and neither platform nor backend is set, so Triton refuses the model ("unexpected platform type '{{platform}}' for {{name}}"); add backend: "{{suggestion}}" next to it`,
  noBackend: `Triton cannot tell which backend serves this model ("unexpected platform type '{{platform}}' for {{name}}"); set backend`,
  backendDropped: `Triton {{target}} has no {{title}} backend ({{lastRelease}} is the last release that builds it), so the server refuses the model ("unable to find backend library for backend '{{backend}}', try specifying runtime on the model configuration."); serve this model with Triton {{lastRelease}} or older (--triton-version {{lastRelease}}), or move it to a backend Triton still ships (ONNX via tf2onnx, TensorRT)`,
  backendLeaving: `the {{title}} backend leaves Triton's releases after {{lastRelease}}: from {{firstWithout}} on a tritonserver has no library for it ("unable to find backend library for backend '{{backend}}', try specifying runtime on the model configuration."); Triton {{target}} still serves it. Keep a release up to {{lastRelease}} for this model, or move it to a backend Triton still ships (ONNX via tf2onnx, TensorRT)`,
  runtimeEscapes: `runtime "{{runtime}}" leaves the directory Triton finds it in (the version directory, the model directory or the backend's directory), so Triton refuses it ("backend library name '{{runtime}}' escapes backend directory '<dir>', for model '{{name}}', check model config runtime field"); put the library in the model directory and write its file name, e.g. runtime: "{{fileName}}"`,
} as const;

type Ctx = ModelContext<undefined, typeof messages>;

export const platformBackend = defineModelRule({
  meta: {
    id: 'platform-backend',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: false,
    description: 'platform and backend must name a backend Triton can find, of the same framework, and runtime must stay in the backend directory',
    prevents: [
      "unexpected platform type '<platform>' for <name>",
      "unexpected 'platform' and 'backend' pair, got:<platform>, <backend>",
      "Ensemble model '<name>' must have platform type '<platform>' and empty backend type",
      "Invalid model name: Could not determine backend for model '<model>' with no backend in model configuration. Expected model name of the form 'model.<backend_name>'.",
      "backend library name '<lib>' escapes backend directory '<dir>', for model '<name>', check model config runtime field",
      "unable to find backend library for backend '<backend>', try specifying runtime on the model configuration.",
    ],
    messages,
  },
  check(ctx) {
    const settled = settledBackend(ctx);
    const written = ctx.config;
    const name = modelName(ctx);
    const { platform, backend } = settled;

    checkRuntime(ctx, name);
    // The backend comes from model files that are not in this checkout: unchecked-model says so.
    if (settled.unknown) return;

    // Step 8 of the auto-fill: nothing says which backend, and the model name has no '.<backend>'.
    if (settled.autofill.problem) {
      // Without a numeric version directory the version-dirs rule reports this very message.
      if (ctx.isEnabled('version-dirs') && !ctx.model.layout().versionDirs.some((v) => v.version !== undefined)) return;
      // The auto-fill's problem (src/triton/autofill.ts step 8), in the rule's own messages.
      const listing = ctx.model.autofillListing();
      const sub = listing.firstSubdir;
      const at = { path: written.name ? ['name'] : [] };
      if (sub)
        ctx.report({
          ...at,
          severity: 'error',
          messageId: 'noModelFileRecognized',
          data: { model: listing.modelName, versionDir: sub.name, modelAt: sub.name === '1' ? '1' : '<version>' },
        });
      else ctx.report({ ...at, severity: 'warning', messageId: 'noVersionDirectoryToInfer', data: { model: listing.modelName } });
      return;
    }

    if (!backend && platform !== ENSEMBLE_PLATFORM) {
      reportUnknownPlatform(ctx, settled, name);
      return;
    }
    // A backend is a library Triton looks up by name (core backend_model.cc
    // TritonModel::ResolveBackendPaths): a name one typo away from a known backend finds none. Where
    // the server's backend directory is known, backend-library looks there instead. A custom backend
    // whose library ships beside the model (for every version loaded) is found there whatever its name.
    if (written.backend && !KNOWN_BACKENDS.includes(written.backend) && !ctx.settings.server.backendDirectory && !shipsItsLibrary(ctx, written.backend)) {
      const hint = didYouMean(written.backend, KNOWN_BACKENDS);
      if (hint) {
        ctx.report({
          path: ['backend'],
          messageId: 'misspeltBackend',
          data: { backend: written.backend, suggestion: hint },
          suggest: [{ description: `set backend: "${hint}"`, edits: [ctx.edits.replaceValue(['backend'], quoteString(hint))] }],
        });
        return;
      }
    }
    if (backend && platform === ENSEMBLE_PLATFORM) {
      ctx.report({
        path: written.backend ? ['backend'] : ['platform'],
        messageId: 'ensembleWithBackend',
        data: { platform, backend, name },
      });
      return;
    }
    const backendType = backendTypeOf(backend);
    // A platform of a later release than the one judged has no backend type there (torch_aoti before 26.03).
    const newer = platformRecord(platform)?.platform.releases;
    const release = ctx.settings.server.target.release;
    if (backendType && written.platform && newer?.since && !holdsIn(newer, release)) {
      ctx.report({
        path: ['platform'],
        messageId: 'platformNotInReleasePair',
        data: { platform, backend, since: newer.since, release: release.container, suggestion: platformOfBackend(backend)! },
      });
      return;
    }
    if (backendType && backendType !== platformBackendType(platform)) {
      const wanted = platformOfBackend(backend)!;
      const guessed = settled.guessed && !written.platform;
      if (written.platform) {
        const hint = didYouMean(
          platform,
          PLATFORM_NAMES.filter((p) => platformBackendType(p) === backendType),
        );
        const record = platformRecord(platform);
        const alias = record !== undefined && record.platform.name !== platform;
        // A platform written by its name fills in its own backend, so a pair that mismatches without
        // an alias has its backend written.
        const messageId = !alias ? 'platformBackendMismatch' : written.backend ? 'platformAliasBackendMismatch' : 'platformAliasBackendMismatchFilled';
        const change = { description: `set platform: "${hint ?? wanted}"`, edits: [ctx.edits.replaceValue(['platform'], quoteString(hint ?? wanted))] };
        // An alias replaced by the very platform it stands for is certainly right: a fix. Otherwise
        // which of platform and backend is wrong is the user's to say: a suggestion.
        const certain = alias && record.platform.name === (hint ?? wanted);
        ctx.report({
          path: ['platform'],
          messageId,
          data: { platform, backend, platformName: record?.platform.name ?? platform, suggestion: hint ?? wanted },
          ...(certain ? { fix: change } : { suggest: [change] }),
        });
      } else {
        // A backend whose platform auto-fill could not settle (tensorflow without a model file it knows).
        ctx.report({
          path: ['backend'],
          severity: guessed ? 'warning' : 'error',
          messageId: guessed ? 'tensorflowNeedsPlatformNoVersionDir' : 'tensorflowNeedsPlatform',
          data: { platform, backend, platforms: TENSORFLOW.platforms.map((p) => `"${p.name}"`).join(' or ') },
        });
      }
      return;
    }
    // A backend a release no longer builds (TensorFlow from 25.03): the target's server has no library
    // for it; a target before that still serves it, with a note once per model that it leaves.
    const record = backendRecord(backend);
    const firstWithout = record?.releases?.until;
    if (record && firstWithout) {
      const target = ctx.settings.server.target;
      const gone = !holdsIn(record.releases, target.release);
      const lastRelease = releaseBefore(firstWithout);
      ctx.report({
        path: written.platform ? ['platform'] : written.backend ? ['backend'] : [],
        severity: gone ? 'error' : 'info',
        messageId: gone ? 'backendDropped' : 'backendLeaving',
        data: { backend, title: record.title ?? backend, target: targetLabel(target), lastRelease: lastRelease?.container ?? firstWithout, firstWithout },
      });
    }
  },
});

function reportUnknownPlatform(ctx: Ctx, settled: SettledBackend, name: string): void {
  const written = ctx.config;
  const platform = settled.platform;
  if (written.platform) {
    // A platform core does not know, with no backend: often a backend name written as the platform.
    const asBackend = KNOWN_BACKENDS.includes(platform);
    const at = { path: ['platform'] };
    // A platform of a later release than the one judged (torch_aoti before 26.03: triton/core-releases.ts).
    const since = platformRecord(platform)?.platform.releases?.since;
    const release = ctx.settings.server.target.release;
    if (since && !holdsIn(platformRecord(platform)!.platform.releases, release)) {
      ctx.report({ ...at, messageId: 'platformNotInRelease', data: { platform, name, since, release: release.container } });
      return;
    }
    const backendPlatform = asBackend ? platformOfBackend(platform) : undefined;
    const hint = asBackend ? undefined : didYouMean(platform, PLATFORM_NAMES);
    if (asBackend && backendPlatform) ctx.report({ ...at, messageId: 'unknownPlatformIsBackend', data: { platform, name, backendPlatform } });
    else if (asBackend) ctx.report({ ...at, messageId: 'unknownPlatformIsBackendOnly', data: { platform, name } });
    else if (hint) ctx.report({ ...at, messageId: 'unknownPlatformDidYouMean', data: { platform, name, suggestion: hint } });
    else ctx.report({ ...at, messageId: 'unknownPlatform', data: { platform, name, platforms: PLATFORM_NAMES.map((p) => `'${p}'`).join(', ') } });
    return;
  }
  const filename = written.default_model_filename ?? '';
  if (filename) {
    // A custom file name tells core nothing: only model.onnx, model.plan, ... select a backend
    // (AutoCompleteBackendFields).
    const ext = /\.([^./]+)$/.exec(filename)?.[1]?.toLowerCase();
    const suggested = ext ? backendOfExtension(ext) : undefined;
    ctx.report({
      path: ['default_model_filename'],
      messageId: 'filenameNamesNoBackend',
      data: { filename, platform, name, suggestion: suggested ?? '<backend>' },
    });
    return;
  }
  // Not reachable through the auto-fill (an empty config either finds a backend or hits step 8).
  ctx.report({ path: [], messageId: 'noBackend', data: { platform, name } });
}

/** Whether each version Triton loads finds the backend's library (or runtime) in its version directory or the model directory. */
function shipsItsLibrary(ctx: Ctx, backend: string): boolean {
  const versions = ctx.model.versions(ctx.config).filter((v) => v.version !== undefined);
  const files = { exists: (p: string): boolean => ctx.files.kind(p) !== undefined };
  const runtime = ctx.config.runtime ?? '';
  return (
    versions.length > 0 && versions.every((v) => libraryBesideModel({ modelDir: ctx.model.dir, version: v.version!, backend, runtime }, files) !== undefined)
  );
}

/** `runtime` is looked up in <model>/<version>, <model>, <backends>/<backend>, and must stay in it. */
function checkRuntime(ctx: Ctx, name: string): void {
  const runtime = ctx.config.runtime;
  if (!runtime) return;
  if (escapes(runtime)) {
    ctx.report({
      path: ['runtime'],
      messageId: 'runtimeEscapes',
      data: { runtime, name, fileName: runtime.split('/').pop() ?? runtime },
    });
  }
}
