// What the text-format parser and its tokenizer say, one message per wording, by id: the values of a
// diagnostic (the token found, field, message, enum and type names, numbers, positions) are its
// data, and the wording is here alone. The parser renders each diagnostic's text from this table,
// and the `syntax` rule's messages are these (lint/rules/correctness/syntax.ts), so a finding's text
// is the parser's. A token's text is quoted by the template ("{{found}}"); where the text ends
// instead, the message is its own (`...Eof`).
import type { Diagnostic, PathSegment, Range } from '../diagnostics.js';
import { renderMessage, type MessageValue, type Placeholders } from '../util/message-template.js';

export const PARSE_MESSAGES = {
  // ---- the tokenizer (protobuf's io/tokenizer.cc) ----
  nulByte:
    'a NUL byte (\\0) in the text: protobuf\'s parser, and so Triton, refuses it ("Invalid control characters encountered in text."); remove it, or write \\000 inside a string',
  unterminatedStringLine: 'unterminated string: a string cannot span lines; add the closing {{quote}}',
  unterminatedStringEof: 'unterminated string: the file ends before the closing {{quote}}',
  // A number (Tokenizer::ConsumeNumber).
  hexWithoutDigits: '"0x" must be followed by hex digits',
  octalDigit: 'numbers starting with 0 are octal and may use only the digits 0-7',
  exponentWithoutDigits: '"e" must be followed by an exponent',
  letterAfterNumber: 'a number must be followed by a space or a symbol, not a letter',
  secondDecimalPoint: 'a number can have only one decimal point or exponent',
  // An escape in a string (ParseStringAppend).
  loneBackslash: 'a string cannot end with a lone backslash',
  hexEscapeWithoutDigits: '"\\x" must be followed by hex digits',
  shortUnicodeEscape: '"\\u" must be followed by 4 hex digits',
  longUnicodeEscape: '"\\U" must be followed by 8 hex digits, at most 0010ffff (protobuf reads no more)',
  invalidEscape: 'invalid escape sequence "\\{{char}}"',
  notUtf8String:
    'the escapes in this string make bytes that are not valid UTF-8: Triton\'s parser keeps them, but protobuf refuses such a string field when it serializes the config ("contains invalid UTF-8 data"); write the text as UTF-8',
  notUtf8Bytes:
    'the escapes in this string make bytes that are not valid UTF-8: Triton\'s parser keeps them, but protobuf refuses such a bytes field when it serializes the config ("contains invalid UTF-8 data"); write the text as UTF-8, or keep the escapes if the bytes are meant',

  // ---- the structure ----
  byteOrderMark: "the file starts with a UTF-8 byte order mark, which protobuf's text parser (and so Triton) rejects; save the file as UTF-8 without a BOM",
  expectedFieldName: 'Expected a field name, got: "{{found}}"',
  unknownField: 'Message type "{{message}}" has no field named "{{field}}".',
  unknownFieldDidYouMean: 'Message type "{{message}}" has no field named "{{field}}". Did you mean "{{suggestion}}"?',
  expectedColon: 'Expected ":", found "{{found}}": write {{field}}: <value>',
  expectedColonEof: 'Expected ":", found end of file: write {{field}}: <value>',
  expectedMessage: 'Expected "{", found "{{found}}": field "{{field}}" is a message ({{message}})',
  expectedMessageEof: 'Expected "{", found end of file: field "{{field}}" is a message ({{message}})',
  expectedMessageElement: 'Expected "{", found "{{found}}": each element of "{{field}}" is a message',
  unterminatedBlock: 'unterminated block: the "{{open}}" at {{line}}:{{column}} is never closed; add "{{close}}"',
  wrongClosingBracket: 'Expected "{{close}}", found "{{found}}": the "{{open}}" at {{line}}:{{column}} is closed with the wrong bracket',
  unmatchedClosingBracket: 'unexpected "{{found}}": there is no open block to close',
  tooDeep: "messages are nested more than {{max}} levels deep, which protobuf's text parser refuses",
  duplicateField: 'Non-repeated field "{{field}}" is specified multiple times (first at {{line}}:{{column}}); keep only one',
  oneofConflict:
    'Field "{{field}}" is specified along with field "{{other}}", another member of oneof "{{oneof}}" (at {{line}}:{{column}}); keep only one of them',
  // Lists.
  notRepeatedMessage: 'field "{{field}}" is not repeated, so it cannot take a list; write {{field}} { ... }',
  notRepeatedScalar: 'field "{{field}}" is not repeated, so it cannot take a list',
  unterminatedList: 'unterminated list: the "[" at {{line}}:{{column}} is never closed; add "]"',
  trailingComma: 'a list cannot end with ","; protobuf\'s text format requires an element after every ","',
  expectedListSeparator: 'Expected "," or "]" in the list, found "{{found}}"',

  // ---- values ----
  templatePlaceholder:
    'template placeholder {{placeholder}} where field "{{field}}" needs a value: it was never filled (fill_template.py leaves the names it is not given), so Triton cannot parse the file; fill it: tritonc fill CONFIG "{{name}}:<value>"',
  templateMarker:
    'template marker {{placeholder}} where field "{{field}}" needs a value: a script fills it (sed) before Triton reads the file, and Triton reads "#" as the start of a comment, so it cannot parse this one; fill it first: replace #{{name}} with the value',
  expectedString: 'Expected string for field "{{field}}", got: "{{found}}"',
  expectedStringEof: 'Expected string for field "{{field}}", got: end of file',
  expectedStringIdent: 'Expected string for field "{{field}}", got: "{{found}}"; quote it: "{{found}}"',
  badBool: 'Invalid value for boolean field "{{field}}". Value: "{{value}}". Use true or false',
  unknownEnum: 'Unknown enumeration value of "{{value}}" for field "{{field}}".',
  unknownEnumValues: 'Unknown enumeration value of "{{value}}" for field "{{field}}". Valid values: {{values}}.',
  unknownEnumDidYouMean: 'Unknown enumeration value of "{{value}}" for field "{{field}}". Did you mean "{{suggestion}}"?',
  expectedEnum: 'Expected integer or identifier for enum field "{{field}}" ({{enum}}), got: "{{found}}"',
  expectedEnumEof: 'Expected integer or identifier for enum field "{{field}}" ({{enum}}), got: end of file',
  enumOutOfRange: 'Integer out of range ({{value}}) for enum field "{{field}}"',
  expectedDouble: 'Expected double for field "{{field}}", got: "{{found}}"',
  expectedDoubleEof: 'Expected double for field "{{field}}", got: end of file',
  expectedInteger: 'Expected integer for field "{{field}}" ({{type}}), got: "{{found}}"',
  expectedIntegerEof: 'Expected integer for field "{{field}}" ({{type}}), got: end of file',
  negativeUnsigned: 'field "{{field}}" is unsigned ({{type}}) and cannot be negative',
  integerOutOfRange: 'Integer out of range ({{value}}): field "{{field}}" is {{type}}, from {{min}} to {{max}}',

  // ---- beyond MAX_SYNTAX_ERRORS ----
  oneMoreError: 'and 1 more syntax error after this point; fix the ones above first',
  moreErrors: 'and {{more}} more syntax errors after this point; fix the ones above first',
} as const;

export type ParseMessages = typeof PARSE_MESSAGES;
export type ParseMessageId = keyof ParseMessages;

/** The values a message's template takes. */
export type ParseData<K extends ParseMessageId> = { readonly [P in Placeholders<ParseMessages[K]>]: MessageValue };

/** A message of the table with its values. */
export type ParseMessage<K extends ParseMessageId = ParseMessageId> = { [I in K]: { messageId: I; data: ParseData<I> } }[K];

/** A diagnostic of the parser: its message id and values, and the text rendered from the table. */
export function syntaxDiagnostic(m: ParseMessage, file: string, range: Range, path: PathSegment[], severity: 'error' | 'warning' = 'error'): Diagnostic {
  return {
    ruleId: 'syntax',
    messageId: m.messageId,
    severity,
    message: renderMessage(PARSE_MESSAGES[m.messageId], m.data),
    file,
    range,
    path,
    data: { ...m.data },
  };
}
