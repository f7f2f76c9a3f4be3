// Version directories and the model file Triton opens in them (core model_lifecycle.cc VersionsToLoad,
// onnxruntime_backend ModelState::LoadModel): a model
// needs at least one numeric version directory that its version_policy selects (ensembles too); names
// with a leading zero or without a leading number are ignored, and a numeric prefix counts (`1_old`
// is version 1); the ONNX Runtime backend opens <model>/<version>/<default_model_filename>.
import { join } from 'node:path';
import type { PathSegment } from '../../../diagnostics.js';
import type { ModelConfig } from '../../../config/model-config.js';
import { versionOfDirName, type VersionDir } from '../../../triton/version-policy.js';
import { defineModelRule, type ModelContext, type RuleFiles } from '../../rule.js';
import { isEnsemble, ONNX_MODEL_FILE, ONNXRUNTIME } from '../../../triton/backend-records.js';

const messages = {
  notAVersion: `directory '{{dirName}}' in model '{{model}}' is not a version: Triton ignores it ("ignore version directory '{{dirName}}' which fails to convert to integral number"); name version directories with a plain number (1, 2, ...)`,
  notAVersionLeadingZero: `directory '{{dirName}}' in model '{{model}}' is not a version: Triton ignores it ("ignore version directory '{{dirName}}' which contains leading zeros in its directory name"); rename it to '{{rename}}' if it is meant as a version`,
  readAsVersion: `directory '{{dirName}}' in model '{{model}}' is read as version {{version}}: Triton takes the leading number of a directory name (std::stoll), and the backend then opens '{{version}}/', not '{{dirName}}/'; rename it (e.g. move old versions out of the model directory) or give it a plain number`,
  readAsVersionShadowed: `directory '{{dirName}}' in model '{{model}}' is read as version {{version}}: Triton takes the leading number of a directory name (std::stoll), and the backend then opens '{{version}}/', which also exists, so '{{dirName}}' itself is never read; rename it (e.g. move old versions out of the model directory) or give it a plain number`,
  noVersionDirectoryNoBackend: `model '{{model}}' has no version directory and its config names no backend or platform, so Triton cannot tell the backend from a model file and refuses it ("Invalid model name: Could not determine backend for model '{{model}}' with no backend in model configuration. Expected model name of the form 'model.<backend_name>'."); put the model in a version directory, e.g. {{example}}, and set the backend (e.g. backend: "onnxruntime")`,
  noVersionDirectoryNoBackendIgnored: `model '{{model}}' has no version directory (Triton ignores {{ignoredDirs}}) and its config names no backend or platform, so Triton cannot tell the backend from a model file and refuses it ("Invalid model name: Could not determine backend for model '{{model}}' with no backend in model configuration. Expected model name of the form 'model.<backend_name>'."); put the model in a version directory, e.g. {{example}}, and set the backend (e.g. backend: "onnxruntime")`,
  noNumericVersion: `model '{{model}}' has no numeric version directory: Triton refuses it ("at least one version must be available under the version policy of model '{{model}}'"); put the model in a version directory, e.g. {{example}}`,
  noNumericVersionIgnored: `model '{{model}}' has no numeric version directory (Triton ignores {{ignoredDirs}}): Triton refuses it ("at least one version must be available under the version policy of model '{{model}}'"); put the model in a version directory, e.g. {{example}}`,
  ensembleNoVersion: `model '{{model}}' has no numeric version directory: Triton refuses it ("at least one version must be available under the version policy of model '{{model}}'"); put the model in a version directory, e.g. {{example}} (an ensemble needs an empty version directory, e.g. 1/)`,
  ensembleNoVersionIgnored: `model '{{model}}' has no numeric version directory (Triton ignores {{ignoredDirs}}): Triton refuses it ("at least one version must be available under the version policy of model '{{model}}'"); put the model in a version directory, e.g. {{example}} (an ensemble needs an empty version directory, e.g. 1/)`,
  policyLatestSelectsNone: `the version_policy selects none of the version directories ({{have}}): Triton refuses the model ("at least one version must be available under the version policy of model '{{model}}'"); latest { num_versions: {{numVersions}} } selects nothing: use num_versions: 1 or more`,
  policyListsMissing: `the version_policy selects none of the version directories ({{have}}): Triton refuses the model ("at least one version must be available under the version policy of model '{{model}}'"); it lists {{listed}}, which have no directory: list existing versions ({{have}}) or add the directories`,
  policyListsNone: `the version_policy selects none of the version directories ({{have}}): Triton refuses the model ("at least one version must be available under the version policy of model '{{model}}'"); specific { versions: [] } lists no version: list the versions to serve`,
  listedVersionMissing: `version {{version}} is listed but has no directory, so Triton skips it ("version {{version}} is specified for model '{{model}}', but the version directory is not present"); add {{model}}/{{version}}/ or remove {{version}} from the list (present: {{have}})`,
  configInVersionDir: `this config.pbtxt is inside version directory '{{dirName}}' of model '{{model}}', where Triton never reads a config: it reads {{model}}/config.pbtxt, which holds another config, so this one is a stray copy; move this file one level up, to {{model}}/config.pbtxt`,
  configOnlyInVersionDir: `this config.pbtxt is inside version directory '{{dirName}}' of model '{{model}}', where Triton never reads a config: it reads {{model}}/config.pbtxt, which is not there, so Triton loads the model with what auto-complete fills in (or refuses it); move this file one level up, to {{model}}/config.pbtxt`,
  versionWithoutModelFile: `version {{version}} of model '{{model}}' has no model file: Triton's ONNX Runtime backend refuses it ("failed to stat file {{path}}"); put the ONNX model at {{model}}/{{version}}/{{artifact}}`,
  versionWithOtherModelFile: `version {{version}} of model '{{model}}' has no model file: Triton's ONNX Runtime backend refuses it ("failed to stat file {{path}}"); the version directory holds '{{other}}': rename it to '{{artifact}}', or set default_model_filename: "{{other}}"`,
  renamedVersionWithoutModelFile: `version {{version}} of model '{{model}}' has no model file (directory '{{dirName}}' is version {{version}}, and the backend opens '{{version}}/'): Triton's ONNX Runtime backend refuses it ("failed to stat file {{path}}"); put the ONNX model at {{model}}/{{version}}/{{artifact}}`,
  renamedVersionWithOtherModelFile: `version {{version}} of model '{{model}}' has no model file (directory '{{dirName}}' is version {{version}}, and the backend opens '{{version}}/'): Triton's ONNX Runtime backend refuses it ("failed to stat file {{path}}"); the version directory holds '{{other}}': rename it to '{{artifact}}', or set default_model_filename: "{{other}}"`,
} as const;

type Ctx = ModelContext<undefined, typeof messages>;

const FILE_START = { start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 1, offset: 0 } };

export const versionDirs = defineModelRule({
  meta: {
    id: 'version-dirs',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: false,
    description: 'A numeric version directory that the version_policy selects, holding the model file Triton opens',
    prevents: [
      "at least one version must be available under the version policy of model '<model>'",
      // onnxruntime_backend r24.10 (tritonserver 2.51, test/server/quoted-messages-real-triton.test.ts)
      'failed to stat file <path>',
      "Invalid model name: Could not determine backend for model '<model>' with no backend in model configuration. Expected model name of the form 'model.<backend_name>'.",
      "version <v> is specified for model '<model>', but the version directory is not present",
      "ignore version directory '<d>' which contains leading zeros in its directory name",
      "ignore version directory '<d>' which fails to convert to integral number",
    ],
    messages,
  },
  check(ctx) {
    // A config linted from memory has no directory to look at.
    if (ctx.files.kind(ctx.model.dir) !== 'dir') return;
    const config = ctx.config;
    const model = ctx.model.name;
    const scan = ctx.model.layout();
    const numeric = scan.versionDirs.filter((v) => v.version !== undefined);
    const ignored = scan.versionDirs.filter((v) => v.version === undefined);
    const policyPath = policyToken(config);
    const example = `${model}/1/${exampleFile(ctx)}`;

    // A config.pbtxt placed inside a version directory (the lint target is this model, targets.ts).
    // Said once per model: on the run of its config.pbtxt, not of each configs/<name>.pbtxt.
    for (const v of ctx.file === join(ctx.model.dir, 'config.pbtxt') ? numeric : []) {
      const stray = join(v.path, 'config.pbtxt');
      // A directory with version directories of its own is a model (named as a number), not a version.
      if (
        ctx.files.kind(stray) !== 'file' ||
        ctx.files.names(v.path).some((n) => versionOfDirName(n).version !== undefined && ctx.files.kind(join(v.path, n)) === 'dir')
      )
        continue;
      const own = scan.configPath !== undefined;
      ctx.report({
        file: stray,
        range: FILE_START,
        severity: own ? 'warning' : 'error',
        messageId: own ? 'configInVersionDir' : 'configOnlyInVersionDir',
        data: { dirName: v.dirName, model },
      });
    }

    // Ignored and oddly-read directory names.
    for (const v of ignored) {
      const leadingZero = v.dirName.length > 1 && v.dirName.startsWith('0');
      const looksLikeVersion = leadingZero || /\d/.test(v.dirName) || numeric.length === 0;
      const at = { path: [] as PathSegment[], severity: looksLikeVersion ? ('warning' as const) : ('info' as const) };
      if (leadingZero)
        ctx.report({
          ...at,
          messageId: 'notAVersionLeadingZero',
          data: { dirName: v.dirName, model, ignored: v.ignored!, rename: String(Number(v.dirName)) || '0' },
        });
      else ctx.report({ ...at, messageId: 'notAVersion', data: { dirName: v.dirName, model, ignored: v.ignored! } });
    }
    for (const v of numeric) {
      if (v.dirName === String(v.version)) continue;
      const same = numeric.some((o) => o !== v && o.dirName === String(v.version));
      ctx.report({
        path: [],
        severity: 'warning',
        messageId: same ? 'readAsVersionShadowed' : 'readAsVersion',
        data: { dirName: v.dirName, model, version: v.version! },
      });
    }

    // Model files provisioned elsewhere (--configs-only): the version directories of this checkout
    // are not the deployed ones; only the lock's record of them (stood in) can be judged.
    if (ctx.model.filesElsewhere()) return;

    // The versions the policy selects (core VersionsToLoad).
    const policy = config.version_policy;
    const selected = ctx.model.versions(config);
    if (!numeric.length) {
      const ignoredDirs = ignored.map((v) => `'${v.dirName}'`).join(', ');
      // Without a model file to look at, core's backend auto-fill gives up first when the config names
      // no backend (AutoCompleteBackendFields): that is the message Triton shows.
      const autofill = ctx.model.autofill(config);
      if (autofill.problem) {
        ctx.report({
          path: policyPath ?? [],
          messageId: ignored.length ? 'noVersionDirectoryNoBackendIgnored' : 'noVersionDirectoryNoBackend',
          data: { model, ignoredDirs, message: autofill.problem.message, example },
        });
        return;
      }
      ctx.report({
        path: policyPath ?? [],
        messageId: isEnsemble(config)
          ? ignored.length
            ? 'ensembleNoVersionIgnored'
            : 'ensembleNoVersion'
          : ignored.length
            ? 'noNumericVersionIgnored'
            : 'noNumericVersion',
        data: { model, ignoredDirs, example },
      });
      return;
    }
    const have = [...new Set(numeric.map((v) => v.version!))].sort((a, b) => a - b);
    if (!selected.length) {
      const at = { path: policyPath ?? ['version_policy'] };
      const data = { have: have.join(', '), model };
      const listed = (policy?.specific?.versions ?? []).map(Number);
      // With a numeric directory only latest (num_versions 0) and specific can select none (triton/version-policy.ts).
      if (policy?.latest) ctx.report({ ...at, messageId: 'policyLatestSelectsNone', data: { ...data, numVersions: policy.latest.num_versions ?? 0 } });
      else if (listed.length) ctx.report({ ...at, messageId: 'policyListsMissing', data: { ...data, listed: listed.join(', ') } });
      else ctx.report({ ...at, messageId: 'policyListsNone', data });
      return;
    }
    if (policy?.specific) {
      const present = new Set(have);
      (policy.specific.versions ?? []).forEach((v, i) => {
        const n = Number(v);
        if (present.has(n)) return;
        ctx.report({
          path: ['version_policy', 'specific', 'versions', i],
          severity: 'warning',
          messageId: 'listedVersionMissing',
          data: { version: n, model, have: have.join(', ') },
        });
      });
    }

    // The model file each selected version needs (onnxruntime_backend ModelState::LoadModel).
    if (isEnsemble(config)) return;
    const filled = ctx.model.autofill(config).config;
    if (filled.backend !== ONNXRUNTIME.name) return;
    const artifact = ctx.model.modelFileName(config) ?? ONNX_MODEL_FILE;
    const alternatives = Object.values(config.cc_model_filenames ?? {});
    for (const v of selected) {
      if (modelFileIn(ctx.files, ctx.model.dir, v, artifact, alternatives)) continue;
      const opened = join(ctx.model.dir, String(v.version), artifact);
      const path = ctx.files.kind(opened) === 'dir' ? join(opened, ONNX_MODEL_FILE) : opened;
      const renamed = v.dirName !== String(v.version);
      const other = otherOnnx(ctx.files.names(join(ctx.model.dir, v.dirName)), artifact);
      const at = { path: config.default_model_filename !== undefined ? ['default_model_filename'] : [] };
      const data = { version: v.version!, model, dirName: v.dirName, path, artifact };
      if (other) ctx.report({ ...at, messageId: renamed ? 'renamedVersionWithOtherModelFile' : 'versionWithOtherModelFile', data: { ...data, other } });
      else ctx.report({ ...at, messageId: renamed ? 'renamedVersionWithoutModelFile' : 'versionWithoutModelFile', data });
    }
  },
});

function policyToken(config: ModelConfig): PathSegment[] | undefined {
  const p = config.version_policy;
  if (!p) return undefined;
  if (p.latest) return p.latest.num_versions !== undefined ? ['version_policy', 'latest', 'num_versions'] : ['version_policy', 'latest'];
  if (p.specific) return p.specific.versions?.length ? ['version_policy', 'specific', 'versions', 0] : ['version_policy', 'specific'];
  return ['version_policy'];
}

function exampleFile(ctx: Ctx): string {
  // No backend at all: the message proposes ONNX Runtime's, so its file.
  if (!ctx.model.autofill(ctx.config).config.backend && !isEnsemble(ctx.config)) return ONNX_MODEL_FILE;
  // The file the backend core settles on opens (model.plan for TensorRT, model.py for Python, ...);
  // none for an ensemble or a backend tritonc knows no file of.
  return ctx.model.modelFileName(ctx.config) ?? '';
}

/** The model file of one version as the ORT backend finds it: a file, or a directory holding model.onnx. */
function modelFileIn(files: RuleFiles, modelDir: string, v: VersionDir, artifact: string, alternatives: string[]): boolean {
  for (const name of [artifact, ...alternatives]) {
    const p = join(modelDir, String(v.version), name);
    const k = files.kind(p);
    // A FIFO or device of that name is there; model-unreadable says it cannot be read.
    if (k === 'file' || k === 'other') return true;
    if (k === 'dir' && files.kind(join(p, ONNX_MODEL_FILE)) === 'file') return true;
  }
  return false;
}

/** Another .onnx file in the version directory, to suggest a rename. */
function otherOnnx(names: string[], artifact: string): string | undefined {
  const onnx = names.filter((n) => n.endsWith('.onnx') && n !== artifact);
  return onnx.length === 1 ? onnx[0] : undefined;
}
