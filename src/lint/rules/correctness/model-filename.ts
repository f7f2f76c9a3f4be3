// default_model_filename (and cc_model_filenames) name a file inside each version directory: Triton
// opens <model>/<version>/<file>. The DALI backend refuses any character outside [A-Za-z0-9_.-]; for
// the other backends a path that climbs out of the version directory, or a name with quotes or
// control characters, loads from somewhere nobody meant (and breaks when the repository moves).
import type { PathSegment } from '../../../diagnostics.js';
import { defineModelRule, type ModelContext } from '../../rule.js';
import { settledBackend } from '../../backend.js';
import { escapes } from '../../relative-path.js';
import { DALI, ONNX_MODEL_FILE } from '../../../triton/backend-records.js';

const DALI_ALLOWED = /^[A-Za-z0-9_.-]$/;
const SUSPICIOUS = /["'`\\\s\p{Cc}]/u;

const messages = {
  ccKeyNotComputeCapability: `cc_model_filenames key {{cc}} is not a compute capability: Triton looks the file up by the GPU's "<major>.<minor>" (e.g. "8.6"), so this entry is never used; write the key as "<major>.<minor>"`,
  daliRefusedCharacter: `{{field}} {{shown}} has the character '{{bad}}', which the DALI backend refuses ("Model file name '{{file}}' contains an invalid character: '{{bad}}'"); use a plain file name of letters, digits, '_', '.' and '-' in the version directory, e.g. "model.dali"`,
  escapesVersionDirectory:
    '{{field}} {{shown}} climbs out of the version directory, so Triton loads a file outside the model (it opens <model>/<version>/{{file}}); put the model file in the version directory and write its name',
  unsafeCharacters: `{{field}} {{shown}} contains quotes, a backslash, white space or control characters, which is almost certainly not the model's file name; write the plain file name in the version directory, e.g. "{{example}}"`,
} as const;

type Ctx = ModelContext<undefined, typeof messages>;

export const modelFilename = defineModelRule({
  meta: {
    id: 'model-filename',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: false,
    description: 'default_model_filename and cc_model_filenames must be plain file names inside the version directory',
    prevents: [
      // DALI backend (src/utils/utils.h ValidateFilename); a newline and the allowed set follow.
      "Model file name '<file>' contains an invalid character: '<c>'",
    ],
    messages,
  },
  check(ctx) {
    const config = ctx.config;
    if (config.default_model_filename) checkName(ctx, config.default_model_filename, ['default_model_filename'], 'default_model_filename');
    for (const [cc, file] of Object.entries(config.cc_model_filenames ?? {})) {
      const path: PathSegment[] = ['cc_model_filenames', cc];
      if (!/^\d+\.\d+$/.test(cc)) {
        ctx.report({
          path,
          range: ctx.doc.locate(path)?.name,
          severity: 'warning',
          messageId: 'ccKeyNotComputeCapability',
          data: { key: cc, cc: JSON.stringify(cc) },
        });
      }
      if (file) checkName(ctx, file, path, `cc_model_filenames["${cc}"]`);
    }
  },
});

function checkName(ctx: Ctx, file: string, path: PathSegment[], field: string): void {
  const shown = JSON.stringify(file);
  if (settledBackend(ctx).backend === DALI.name) {
    const bad = [...file].find((c) => !DALI_ALLOWED.test(c));
    if (bad !== undefined) {
      ctx.report({
        path,
        messageId: 'daliRefusedCharacter',
        data: { file, character: bad, field, shown, bad },
      });
    }
    return;
  }
  if (escapes(file)) {
    ctx.report({
      path,
      severity: 'warning',
      messageId: 'escapesVersionDirectory',
      data: { file, field, shown },
    });
  } else if (SUSPICIOUS.test(file)) {
    ctx.report({
      path,
      severity: 'warning',
      messageId: 'unsafeCharacters',
      data: { file, field, shown, example: ONNX_MODEL_FILE },
    });
  }
}
