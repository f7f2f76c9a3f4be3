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
      nameMismatch: `name {{shown}} is not the model directory's name '{{dir}}', so Triton refuses the model ("{{tritonMessage}}");{{why}} set name: {{quotedDir}} or remove name (Triton fills it from the directory){{renameNote}}`,
    },
  },
  check(ctx) {
    const name = ctx.config.name;
    const dir = ctx.model.name;
    if (name === undefined || name === '' || name === dir) return;
    const tritonMessage = `unexpected directory name '${dir}' for model '${name}', directory name must equal model name`;
    const shown = JSON.stringify(name);
    let why = '';
    if (name === '..' || name.includes('/')) {
      why = ` ${shown} contains path traversal characters and can never be a directory name ("invalid model name '${name}', model name must not contain path traversal characters");`;
    } else if (name.trim() === '') {
      why = ' a blank name is not empty: Triton only fills in a name that is missing;';
    } else if (name.trim() === dir) {
      why = ` the name has spaces around it;`;
    } else if (name.toLowerCase() === dir.toLowerCase()) {
      why = ' names are case-sensitive;';
    }
    ctx.report({
      path: ['name'],
      messageId: 'nameMismatch',
      data: { name, directory: dir, tritonMessage, shown, dir, why, quotedDir: JSON.stringify(dir), renameNote: name.includes('/') || name === '..' ? '' : `, or rename the directory to '${name}'` },
      fix: { description: `set name: ${JSON.stringify(dir)}`, edits: [ctx.edits.replaceValue(['name'], quoteString(dir))] },
    });
  },
});
