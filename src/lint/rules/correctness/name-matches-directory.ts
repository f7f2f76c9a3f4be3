// A config's `name` must be the model directory's name (core InitializeModelInfo): Triton loads the
// model from the directory and refuses a config that calls it something else. An empty name is fine
// (core fills it in from the directory). A name that could never be a directory name (a path with
// '/', '..', an empty or blank name) is called out as such.
import { quoteString } from '../../../pbtxt/scalars.js';
import { defineModelRule } from '../../rule.js';

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
    ],
    messages: {
      nameMismatch: `name {{shown}} is not the model directory's name '{{dir}}', so Triton refuses the model ("unexpected directory name '{{dir}}' for model '{{name}}', directory name must equal model name"); set name: {{quotedDir}} or remove name (Triton fills it from the directory), or rename the directory to '{{name}}'`,
      namePathTraversal: `name {{shown}} is not the model directory's name '{{dir}}', so Triton refuses the model ("unexpected directory name '{{dir}}' for model '{{name}}', directory name must equal model name"); {{shown}} contains path traversal characters and can never be a directory name ("invalid model name '{{name}}', model name must not contain path traversal characters"); set name: {{quotedDir}} or remove name (Triton fills it from the directory)`,
      nameBlank: `name {{shown}} is not the model directory's name '{{dir}}', so Triton refuses the model ("unexpected directory name '{{dir}}' for model '{{name}}', directory name must equal model name"); a blank name is not empty: Triton only fills in a name that is missing; set name: {{quotedDir}} or remove name (Triton fills it from the directory), or rename the directory to '{{name}}'`,
      nameSpacesAround: `name {{shown}} is not the model directory's name '{{dir}}', so Triton refuses the model ("unexpected directory name '{{dir}}' for model '{{name}}', directory name must equal model name"); the name has spaces around it; set name: {{quotedDir}} or remove name (Triton fills it from the directory), or rename the directory to '{{name}}'`,
      nameCaseDiffers: `name {{shown}} is not the model directory's name '{{dir}}', so Triton refuses the model ("unexpected directory name '{{dir}}' for model '{{name}}', directory name must equal model name"); names are case-sensitive; set name: {{quotedDir}} or remove name (Triton fills it from the directory), or rename the directory to '{{name}}'`,
    },
  },
  check(ctx) {
    const name = ctx.config.name;
    const dir = ctx.model.name;
    if (name === undefined || name === '' || name === dir) return;
    const messageId =
      name === '..' || name.includes('/')
        ? 'namePathTraversal'
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
      data: { name, directory: dir, shown: JSON.stringify(name), dir, quotedDir: JSON.stringify(dir) },
      fix: { description: `set name: ${JSON.stringify(dir)}`, edits: [ctx.edits.replaceValue(['name'], quoteString(dir))] },
    });
  },
});
