// The parser's findings as a rule, so they have an id, docs and SARIF metadata like every other
// finding. Always an error: Triton refuses a file it cannot parse, and other rules do not run on it.
import { defineModelRule } from '../../rule.js';

export const syntax = defineModelRule({
  meta: {
    id: 'syntax',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: false,
    configurable: false,
    unreadableConfigs: true,
    description: 'The config must parse as Triton parses it: protobuf text format of inference.ModelConfig',
    prevents: [
      'Error parsing text-format inference.ModelConfig: <line>:<col>: <message>',
      'failed to read text proto from <path>',
    ],
    messages: {
      // The parser's own message, which names the token and what was expected.
      parseError: '{{text}}',
    },
  },
  check(ctx) {
    for (const d of ctx.doc.diagnostics) {
      ctx.report({ range: d.range, path: d.path, messageId: 'parseError', data: { ...d.data, text: d.message } });
    }
  },
});
