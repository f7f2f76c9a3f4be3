// A field the target release's schema does not have (triton/schema-releases.ts): that release's
// protobuf text parser stops at its name (google/protobuf/text_format.cc ParserImpl::ConsumeField,
// "Message type ... has no field named ..."), core answers "failed to read text proto from <path>"
// (core src/model_config_utils.cc GetModelConfig via ReadTextProto) and the model never loads: seen
// with the real tritonserver 2.51.0 (24.10) on model_metrics, which arrived in 24.11.
import { targetLabel } from '../../../triton/releases/target.js';
import { fieldReleases, fieldsMissingIn } from '../../../triton/schema-releases.js';
import { defineModelRule } from '../../rule.js';

export const fieldRelease = defineModelRule({
  meta: {
    id: 'field-release',
    category: 'correctness',
    defaultSeverity: 'error',
    requiresModel: false,
    // Such a config is unreadable to the target (the engine skips the other rules); this rule says why.
    unreadableConfigs: true,
    description: 'The config sets only fields the target Triton release has (--triton-version, the triton setting)',
    prevents: [
      'Error parsing text-format inference.ModelConfig: <line>:<col>: Message type "<message>" has no field named "<field>".',
      'failed to read text proto from <path>',
    ],
    messages: {
      fieldNotInRelease: `{{field}} is a field of {{message}} from Triton {{since}} on, and Triton {{target}} ({{server}}) does not have it, so it refuses the config ("failed to read text proto from {{file}}"; "Error parsing text-format inference.ModelConfig: {{line}}:{{column}}: Message type "{{message}}" has no field named "{{field}}"."); remove {{field}}, or target a release from {{since}} on (--triton-version {{since}}, or "triton": "{{since}}" in tritonc.config.json)`,
    },
  },
  check(ctx) {
    const target = ctx.settings.server.target;
    const found = fieldsMissingIn(ctx.config, target.release);
    if (!found.length) return;
    // Where protobuf's tokenizer stands when it refuses the name: the next token, as line:column
    // (1-based; a column counts bytes, a tab to the next multiple of 8: google/protobuf/io/tokenizer.cc).
    const text = ctx.doc.text;
    const at = found.map((f) => {
      const loc = ctx.doc.locate(f.path);
      return nextToken(text, loc?.name?.end.offset ?? loc?.value.start.offset ?? 0);
    });
    const positions = protobufPositions(text, at);
    found.forEach((f, i) => {
      ctx.report({
        path: f.path,
        messageId: 'fieldNotInRelease',
        data: {
          field: f.field.name,
          message: f.field.parent.fullName,
          since: fieldReleases(f.field)!.since,
          target: targetLabel(target),
          server: target.release.server,
          file: ctx.file,
          line: positions[i]!.line,
          column: positions[i]!.column,
        },
        suggest: [{ description: `remove ${f.field.name}`, edits: [ctx.edits.removeField(f.path)] }],
      });
    });
  },
});

/** The offset of the first token at or after `from`: past whitespace and `#` comments. */
function nextToken(text: string, from: number): number {
  let i = from;
  for (;;) {
    while (i < text.length && ' \t\n\v\f\r'.includes(text[i]!)) i++;
    if (text[i] !== '#') return i;
    const nl = text.indexOf('\n', i);
    i = nl < 0 ? text.length : nl;
  }
}

/** Protobuf's line:column of each offset, in one pass over the text up to the last of them. */
function protobufPositions(text: string, offsets: readonly number[]): { line: number; column: number }[] {
  const order = offsets.map((o, i) => ({ o, i })).sort((a, b) => a.o - b.o);
  const out: { line: number; column: number }[] = offsets.map(() => ({ line: 0, column: 0 }));
  let line = 0;
  let column = 0;
  let i = 0;
  for (const { o, i: k } of order) {
    for (; i < o; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) {
        line++;
        column = 0;
      } else if (c === 9) column += 8 - (column % 8);
      // UTF-8 bytes: 1 to 3 per UTF-16 unit, 4 per surrogate pair (2 for each half).
      else column += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c <= 0xdfff ? 2 : 3;
    }
    out[k] = { line: line + 1, column: column + 1 };
  }
  return out;
}
