// The syntax tree of a text-format file: every field, value and list element with its source range,
// and every comment attached to the node it belongs to. The formatter prints from it; lint rules use
// it (through ConfigDocument.locate) to point at exact tokens.
import type { Range } from '../diagnostics.js';
import type { SchemaField, SchemaMessage } from './descriptor.js';
import type { Comment } from './lexer.js';

export type { Comment };

/** Comments and blank lines around a field or a list element. */
export interface Trivia {
  /** Comments on their own lines before the node. */
  leading: Comment[];
  /** A comment after the node on the same line. */
  trailing?: Comment;
  /** Whether an empty line separates the node (or its first leading comment) from what precedes it. */
  blankLineBefore: boolean;
  /** Whether an empty line separates the leading comments from the node. */
  blankLineAfterComments: boolean;
}

export type ScalarValue = string | number | bigint | boolean;

export interface ScalarNode {
  kind: 'scalar';
  range: Range;
  /** The source text, e.g. `0x10`, `"a" "b"`, `- 1`, `TYPE_FP32`. */
  text: string;
  /** The typed value; undefined when the literal was invalid for the field (a diagnostic says why). */
  value: ScalarValue | undefined;
  /** Printed as written: the value cannot stand for it (bytes that are not UTF-8). */
  verbatim?: boolean;
}

export interface MessageNode {
  kind: 'message';
  range: Range;
  message: SchemaMessage | undefined;
  fields: FieldNode[];
  /** A comment on the line of the opening brace, after it. */
  openComment?: Comment;
  /** Comments after the last field, before the closing brace. */
  dangling: Comment[];
  /** Written with `<` and `>` rather than braces (the layout-only formatter keeps the author's choice). */
  angle?: boolean;
}

export interface ElementNode extends Trivia {
  value: ScalarNode | MessageNode;
}

export interface ListNode {
  kind: 'list';
  range: Range;
  elements: ElementNode[];
  openComment?: Comment;
  dangling: Comment[];
}

export type ValueNode = ScalarNode | MessageNode | ListNode;

export interface FieldNode extends Trivia {
  kind: 'field';
  name: string;
  nameRange: Range;
  /** The schema field; undefined for an unknown field name. */
  field: SchemaField | undefined;
  /** Whether a `:` followed the name. */
  colon: boolean;
  /** The `,` or `;` written after the field, when one was. */
  separator?: ',' | ';';
  value: ValueNode;
  /** From the name to the end of the value. */
  range: Range;
}

export interface DocumentNode {
  kind: 'document';
  range: Range;
  fields: FieldNode[];
  /** Comments after the last field. */
  dangling: Comment[];
}
