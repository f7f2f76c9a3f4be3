// The parser's findings as a rule, so they have an id, docs and SARIF metadata like every other
// finding. Always an error: Triton refuses a file it cannot parse, and other rules do not run on it.
// Except a template (tensorrtllm_backend's all_models, kept in a repository to be filled at deploy):
// when `${...}` placeholders, or sed-style `#name` markers (pbtxt/template-markers.ts), are all that
// stops the parse, one note says to fill it first.
import { dirname, relative } from 'node:path';
import { unfilledTemplate } from '../../../config/document.js';
import { PARSE_MESSAGES } from '../../../pbtxt/messages.js';
import { defineModelRule, type Report } from '../../rule.js';

export const syntax = defineModelRule({
  meta: {
    id: 'syntax',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: false,
    configurable: false,
    unreadableConfigs: true,
    description: 'The config must parse as Triton parses it: protobuf text format of inference.ModelConfig',
    prevents: ['Error parsing text-format inference.ModelConfig: <line>:<col>: <message>', 'failed to read text proto from <path>'],
    messages: {
      // The parser's messages (pbtxt/messages.ts): one per wording, the token, names and numbers as data.
      ...PARSE_MESSAGES,
      templateOne:
        'template: 1 unfilled placeholder ({{names}}) where values go, so this is a template to fill, not a config Triton can read; fill it first (tritonc fill {{file}} "name:value,..."), and tritonc checks the filled config. To keep templates out of the pre-commit hooks, exclude them (exclude: in .pre-commit-config.yaml)',
      markerTemplateOne:
        'template: 1 unfilled marker ({{names}}) where values go, so this is a template a script fills (sed), not a config Triton can read (Triton reads "#" as the start of a comment); fill it first, and tritonc checks the filled config. To keep templates out of the pre-commit hooks, exclude them (exclude: in .pre-commit-config.yaml)',
      markerTemplate:
        'template: {{count}} unfilled markers ({{names}}) where values go, so this is a template a script fills (sed), not a config Triton can read (Triton reads "#" as the start of a comment); fill it first, and tritonc checks the filled config. To keep templates out of the pre-commit hooks, exclude them (exclude: in .pre-commit-config.yaml)',
      template:
        'template: {{count}} unfilled placeholders ({{names}}) where values go, so this is a template to fill, not a config Triton can read; fill it first (tritonc fill {{file}} "name:value,..."), and tritonc checks the filled config. To keep templates out of the pre-commit hooks, exclude them (exclude: in .pre-commit-config.yaml)',
    },
  },
  check(ctx) {
    const placeholders = unfilledTemplate(ctx.doc.diagnostics);
    if (placeholders.length) {
      const names = [...new Set(placeholders.map((d) => ctx.doc.text.slice(d.range.start.offset, d.range.end.offset)))];
      ctx.report({
        range: placeholders[0]!.range,
        severity: 'info',
        // `tritonc fill` fills `${name}` placeholders; sed-style markers are the project's script's to fill.
        messageId: placeholders.some((d) => d.messageId === 'templateMarker')
          ? placeholders.length === 1
            ? 'markerTemplateOne'
            : 'markerTemplate'
          : placeholders.length === 1
            ? 'templateOne'
            : 'template',
        data: {
          count: placeholders.length,
          names: names.slice(0, 3).join(', ') + (names.length > 3 ? ', ...' : ''),
          file: relative(dirname(ctx.model.dir), ctx.file),
          placeholders: names,
        },
      });
      return;
    }
    // The parser's diagnostics carry a message of PARSE_MESSAGES and the values its template takes,
    // and their severity: bytes that are not UTF-8 are a warning (Triton's parser keeps them).
    for (const d of ctx.doc.diagnostics)
      ctx.report({ range: d.range, path: d.path, severity: d.severity, messageId: d.messageId, data: d.data } as Report<typeof PARSE_MESSAGES>);
  },
});
