// Where an offset of a text stands, as line and column (1-based), for findings in files that are not
// configs (a model.json, a model.yaml, a template).
export interface TextPosition {
  offset: number;
  line: number;
  column: number;
}

export function positionAt(text: string, offset: number): TextPosition {
  const before = text.slice(0, offset).split('\n');
  return { offset, line: before.length, column: before[before.length - 1]!.length + 1 };
}
