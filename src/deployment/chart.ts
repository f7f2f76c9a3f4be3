// A Helm chart's documents, rendered by the real helm (helm.ts) and parsed as manifests, each found
// where a user edits it: a value its template takes from `{{ .Values.x }}` at that key in the values
// file (or --set) that gives it, anything else at its line in the template (chart-locate.ts), and the
// rendered text only where neither is known.
import { renderChart, type RenderOptions } from './helm.js';
import { chartReads, locateInChart } from './chart-locate.js';
import { parseManifestText, type Location, type ManifestDocument } from './manifest-text.js';
import { isRecord } from './kubernetes.js';

const point = (file: string, line: number, column: number, endLine = line, endColumn = column): Location => ({
  file,
  // Offsets are not known here: findings in charts carry no fix.
  range: { start: { line, column, offset: 0 }, end: { line: endLine, column: endColumn, offset: 0 } },
});

export async function chartDocuments(chartDir: string, options: RenderOptions = {}): Promise<ManifestDocument[]> {
  const rendered = await renderChart(chartDir, options);
  const docs = parseManifestText(rendered.text, `${chartDir}/(rendered)`);
  // Per template and kind, how many documents came before: locateInChart's index.
  const seen = new Map<string, number>();
  // Every document's values are located in the same few files: each read and parsed once.
  const reads = chartReads();
  return docs.map((doc) => {
    const source = [...rendered.sources].reverse().find((s) => s.start <= doc.offset);
    const file = source?.file;
    if (!file) return doc;
    const kind = isRecord(doc.value) && typeof doc.value.kind === 'string' ? doc.value.kind : undefined;
    const key = `${file}\0${kind ?? ''}`;
    const index = seen.get(key) ?? 0;
    seen.set(key, index + 1);
    const locateOptions = {
      ...(options.values ? { values: options.values } : {}),
      ...(options.set ? { set: options.set } : {}),
      ...(kind ? { kind } : {}),
      index,
      reads,
    };
    return {
      file,
      offset: doc.offset,
      value: doc.value,
      locate: (path) => {
        const found = locateInChart(chartDir, file, path, locateOptions);
        if (found?.values) return point(found.values.file, found.values.line, found.values.column, found.values.endLine, found.values.endColumn);
        if (found) return point(found.template.file, found.template.line, found.template.column);
        return point(file, 1, 1);
      },
    };
  });
}
