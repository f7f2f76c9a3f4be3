// The YAML tritonc deploy writes: documents made by the `yaml` package from plain values (it quotes
// every string that needs it), with comments placed before the keys they are about, each comment
// line's control characters escaped so a name holding a line break cannot end a comment.
import { Document, isMap, isScalar, type Node } from 'yaml';
import { escapeControl } from '../util/terminal-text.js';

/** A comment before the key at `path` (its last element a key of a mapping); the document's own before it when `path` is empty. */
export interface YamlComment {
  path: readonly (string | number)[];
  lines: readonly string[];
}

const commentText = (lines: readonly string[]) =>
  lines
    .flatMap((l) => l.split('\n'))
    .map((l) => ` ${escapeControl(l)}`)
    .join('\n');

/** One YAML document of `value`, with `comments`. */
export function yamlDocument(value: unknown, comments: readonly YamlComment[] = []): string {
  // No anchors: a value used twice (the labels) is written twice, as people write manifests.
  const doc = new Document(value, { aliasDuplicateObjects: false });
  for (const c of comments) {
    if (!c.path.length) {
      doc.commentBefore = commentText(c.lines);
      continue;
    }
    const parent = doc.getIn(c.path.slice(0, -1), true) as Node | undefined;
    const key = c.path.at(-1);
    if (!isMap(parent)) throw new Error(`no mapping at ${c.path.slice(0, -1).join('.')}`);
    const pair = parent.items.find((p) => isScalar(p.key) && p.key.value === key);
    if (!pair || !isScalar(pair.key)) throw new Error(`no key ${c.path.join('.')}`);
    pair.key.commentBefore = commentText(c.lines);
  }
  return doc.toString({ lineWidth: 0 });
}

/**
 * A command or args word as the kubelet passes it on: it expands $(NAME) from the container's
 * environment and reads $$ as $ (kubernetes third_party/forked/golang/expansion/expand.go), so every
 * $ is written $$ and the word reaches tritonserver as it is.
 */
export const kubeletWord = (word: string): string => word.replace(/\$/g, '$$$$');
