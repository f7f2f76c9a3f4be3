// A config's `name` must be the model directory's name (core InitializeModelInfo): Triton loads the
// model from the directory and refuses a config that calls it something else. An empty name is fine
// (core fills it in from the directory). A name that could never be a directory name (a path with
// '/', '..', an empty or blank name) is called out as such. From 26.03 core also refuses a load
// request whose model name it finds unsafe (triton/core-releases.ts modelNameRefusal): a directory
// so named loads when the server polls, but not when it is asked to load it (explicit model control).
import { quoteString } from '../../../pbtxt/scalars.js';
import { modelNameRefusal } from '../../../triton/core-releases.js';
import { defineModelRule } from '../../rule.js';

const EXPLICIT_ONLY =
  'the server loads it when it polls the repository, but not when asked to (--model-control-mode=explicit: --load-model, the repository API, tritonc verify); rename the directory';

const DIRECTORY_MESSAGE = { traversal: 'directoryNameTraversal', blank: 'directoryNameBlank', emptyTrimmed: 'directoryNameEmpty' } as const;

export const nameMatchesDirectory = defineModelRule({
  meta: {
    id: 'name-matches-directory',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: false,
    description: 'name must equal the name of the model directory',
    prevents: [
      "unexpected directory name '<dir>' for model '<config.name>', directory name must equal model name",
      "invalid model name '<name>', model name must not contain path traversal characters",
      'Model name cannot be empty. Please enter a valid name to deploy.',
      'model name must not contain only whitespace characters',
    ],
    messages: {
      nameMismatch: `name {{shown}} is not the model directory's name '{{dir}}', so Triton refuses the model ("unexpected directory name '{{dir}}' for model '{{name}}', directory name must equal model name"); set name: {{quotedDir}} or remove name (Triton fills it from the directory), or rename the directory to '{{name}}'`,
      namePathTraversal: `name {{shown}} is not the model directory's name '{{dir}}', so Triton refuses the model ("unexpected directory name '{{dir}}' for model '{{name}}', directory name must equal model name"); {{shown}} can never be a directory name, and Triton {{release}} refuses it as a model name ("invalid model name '{{name}}', model name must not contain path traversal characters"); set name: {{quotedDir}} or remove name (Triton fills it from the directory)`,
      directoryNameTraversal: `the model directory's name {{shown}} is one Triton {{release}} refuses in a load request ("invalid model name '{{dir}}', model name must not contain path traversal characters"; '..' anywhere in 26.03, only '..' itself from 26.04): ${EXPLICIT_ONLY}`,
      directoryNameBlank: `the model directory's name {{shown}} is one Triton {{release}} refuses in a load request ("model name must not contain only whitespace characters"): ${EXPLICIT_ONLY}`,
      directoryNameEmpty: `the model directory's name {{shown}} is one Triton {{release}} refuses in a load request ("Model name cannot be empty. Please enter a valid name to deploy.", the name trimmed first, from 26.04): ${EXPLICIT_ONLY}`,
      nameBlank: `name {{shown}} is not the model directory's name '{{dir}}', so Triton refuses the model ("unexpected directory name '{{dir}}' for model '{{name}}', directory name must equal model name"); a blank name is not empty: Triton only fills in a name that is missing; set name: {{quotedDir}} or remove name (Triton fills it from the directory), or rename the directory to '{{name}}'`,
      nameSpacesAround: `name {{shown}} is not the model directory's name '{{dir}}', so Triton refuses the model ("unexpected directory name '{{dir}}' for model '{{name}}', directory name must equal model name"); the name has spaces around it; set name: {{quotedDir}} or remove name (Triton fills it from the directory), or rename the directory to '{{name}}'`,
      nameCaseDiffers: `name {{shown}} is not the model directory's name '{{dir}}', so Triton refuses the model ("unexpected directory name '{{dir}}' for model '{{name}}', directory name must equal model name"); names are case-sensitive; set name: {{quotedDir}} or remove name (Triton fills it from the directory), or rename the directory to '{{name}}'`,
    },
  },
  check(ctx) {
    const name = ctx.config.name;
    const dir = ctx.model.name;
    const release = ctx.settings.server.target.release;
    // core r26.03+ ValidateModelName, on the name a load request gives: the directory's.
    // A directory's name is never empty, so 'empty' cannot come.
    const refused = modelNameRefusal(dir, release);
    if (refused && refused !== 'empty') {
      ctx.report({
        path: name ? ['name'] : [],
        severity: 'warning',
        messageId: DIRECTORY_MESSAGE[refused],
        data: { shown: JSON.stringify(dir), dir, release: release.container },
      });
    }
    if (name === undefined || name === '' || name === dir) return;
    const messageId =
      name === '..' || name.includes('/')
        ? modelNameRefusal(name, release) === 'traversal'
          ? 'namePathTraversal'
          : 'nameMismatch'
        : name.trim() === ''
          ? 'nameBlank'
          : name.trim() === dir
            ? 'nameSpacesAround'
            : name.toLowerCase() === dir.toLowerCase()
              ? 'nameCaseDiffers'
              : 'nameMismatch';
    ctx.report({
      path: ['name'],
      messageId,
      data: { name, directory: dir, shown: JSON.stringify(name), dir, quotedDir: JSON.stringify(dir), release: release.container },
      fix: { description: `set name: ${JSON.stringify(dir)}`, edits: [ctx.edits.replaceValue(['name'], quoteString(dir))] },
    });
  },
});
