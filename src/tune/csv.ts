// CSV as perf_analyzer and Model Analyzer write it: comma-separated, a first row of column names,
// double-quoted cells where a cell holds a comma (Model Analyzer's lists), and no quoting otherwise.
// Each row keeps its line number, so an error names the file, the line and the column.

export class CsvError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    readonly problem: string,
  ) {
    super(`${file}:${line}:${column}: ${problem}`);
  }
}

export interface CsvRow {
  line: number;
  cells: string[];
  /** The 1-based column where each cell starts. */
  columns: number[];
}

function splitLine(text: string, file: string, line: number): CsvRow {
  const cells: string[] = [];
  const columns: number[] = [];
  let i = 0;
  for (;;) {
    columns.push(i + 1);
    if (text[i] === '"') {
      let cell = '';
      i++;
      for (;;) {
        if (i >= text.length) throw new CsvError(file, line, columns[columns.length - 1]!, 'a quoted cell is not closed');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            cell += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        cell += text[i++];
      }
      cells.push(cell);
      if (i < text.length && text[i] !== ',') throw new CsvError(file, line, i + 1, 'text after a quoted cell');
    } else {
      const end = text.indexOf(',', i);
      cells.push((end < 0 ? text.slice(i) : text.slice(i, end)).trim());
      i = end < 0 ? text.length : end;
    }
    if (i >= text.length) break;
    i++; // the comma
  }
  return { line, cells, columns };
}

/** The header and the rows (blank lines skipped: Model Analyzer ends its files with one). */
export function parseCsv(text: string, file: string): { header: CsvRow; rows: CsvRow[] } {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const parsed: CsvRow[] = [];
  lines.forEach((l, i) => {
    if (l.trim() !== '') parsed.push(splitLine(l, file, i + 1));
  });
  const [header, ...rows] = parsed;
  if (!header) throw new CsvError(file, 1, 1, 'the file is empty: no header row');
  return { header, rows };
}
