// label_filename of an output (core src/model.cc Model::Init): core joins it to the model directory
// (src/filesystem/api.cc JoinPath: an absolute name is appended too, so "/x" means <model>/x), refuses
// a path whose canonical form (symbolic links resolved, std::filesystem::weakly_canonical) leaves the
// model directory (IsChildPathEscapingParentPath, from 26.02: triton/core-releases.ts; tritonserver 2.51
// loads such a model, test/server/quoted-messages-real-triton.test.ts label_outside, and so does the
// r24.10 core while r26.06's refuses it, test/conformance/core-releases.test.ts), then reads the file
// (LabelProvider::AddLabels, ReadTextFile): one that cannot be opened fails the load; a second output of
// the same name with a label file fails it too (label_provider.cc AddLabels: the labels are kept by
// output name). Every backend's
// model goes through this.
import { normalize, sep } from 'node:path';
import { holdsIn } from '../../../triton/releases/catalog.js';
import { LABEL_OUTSIDE_MODEL_DIRECTORY } from '../../../triton/core-releases.js';
import { defineModelRule } from '../../rule.js';

const messages = {
  outsideModelDirectory:
    "label_filename \"{{labelFilename}}\" of output '{{output}}' leaves the model directory, which Triton {{release}} refuses, as every release from 26.02 on does (\"label file path '{{path}}' for output '{{output}}' in model '{{model}}' is outside model directory\"); put the labels file in {{modelDir}} and name it relative to it, e.g. label_filename: \"labels.txt\"",
  multipleLabelFiles:
    'output \'{{output}}\' is declared again with label_filename "{{labelFilename}}", and an earlier output of that name has label_filename "{{firstLabelFilename}}", so Triton fails to load the model ("multiple label files for \'{{output}}\'"); keep one output named \'{{output}}\', with one label_filename',
  missing:
    'label_filename "{{labelFilename}}" of output \'{{output}}\' is not a file in the model directory, so Triton fails to load the model ("failed to open text file for read {{path}}: No such file or directory"); add the labels file at {{path}}, or remove label_filename',
} as const;

/** Where core looks for the file, spelt as core spells it (JoinPath: segments joined with one '/', nothing folded). */
export function labelPath(modelDir: string, labelFilename: string): string {
  const slash = modelDir.endsWith('/');
  if (labelFilename.startsWith('/')) return modelDir + (slash ? labelFilename.slice(1) : labelFilename);
  return modelDir + (slash ? '' : '/') + labelFilename;
}

export const labelFile = defineModelRule({
  meta: {
    id: 'label-file',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: false,
    description: "An output's label_filename must be a file inside the model directory",
    prevents: [
      "label file path '<path>' for output '<output>' in model '<model>' is outside model directory",
      'failed to open text file for read <path>: <reason>',
      "multiple label files for '<output>'",
    ],
    messages,
  },
  check(ctx) {
    const dir = ctx.model.dir;
    const release = ctx.settings.server.target.release;
    // Asked only for a config that names a label file: most have none.
    let root: string | undefined;
    /** The label file of each output name read so far (AddLabels keys them by name). */
    const labelled = new Map<string, string>();
    (ctx.config.output ?? []).forEach((output, i) => {
      const labelFilename = output.label_filename;
      if (!labelFilename) return;
      const path = labelPath(dir, labelFilename);
      const kind = ctx.files.kind(path);
      // weakly_canonical: links resolved where the path exists, '..' folded where it does not.
      const canonical = kind === undefined ? normalize(path) : ctx.files.realpath(path);
      const base = kind === undefined ? normalize(dir) : (root ??= ctx.files.realpath(dir));
      const data = { labelFilename, output: output.name ?? '', path, model: ctx.config.name || ctx.model.name, modelDir: `${ctx.model.name}/` };
      const at = ['output', i, 'label_filename'];
      const outside = canonical !== base && !canonical.startsWith(base.endsWith(sep) ? base : base + sep);
      // Before 26.02 core reads the file wherever it lies (r26.01 src/model.cc): only a missing one fails.
      if (outside && holdsIn(LABEL_OUTSIDE_MODEL_DIRECTORY.releases, release))
        ctx.report({ path: at, messageId: 'outsideModelDirectory', data: { ...data, release: release.container } });
      // The file read where it lies (a source that does not fold '..' itself, as the editor's, is asked the folded path).
      else if ((kind ?? ctx.files.kind(canonical)) !== 'file') ctx.report({ path: at, messageId: 'missing', data });
      else if (labelled.has(data.output))
        ctx.report({ path: at, messageId: 'multipleLabelFiles', data: { output: data.output, labelFilename, firstLabelFilename: labelled.get(data.output)! } });
      else labelled.set(data.output, labelFilename);
    });
  },
});
