// Lint with one rule (any rule of RULES) and get its findings as data: severity, message id and
// data, the text each points at, and the text of its fix's first edit.
import { join } from 'node:path';
import { lintSync } from '../../src/lint/engine.js';
import { ruleById } from '../../src/lint/rules/index.js';
import { writeRepo, type RepoFiles } from '../lint/harness.js';

export interface FindingData {
  file: string;
  severity: string;
  messageId: string | undefined;
  data: Record<string, unknown> | undefined;
  message: string;
  token: string;
  fix: string | undefined;
}

export async function lintFilesData(ruleId: string, files: RepoFiles, paths: string[] = ['m'], options: { configsOnly?: boolean } = {}): Promise<FindingData[]> {
  const rule = ruleById(ruleId);
  if (!rule) throw new Error(`no rule ${ruleId}`);
  const dir = await writeRepo(files);
  const result = lintSync(paths.map((p) => join(dir, p)), { cwd: dir, rules: [rule], ...options });
  return result.results.flatMap((r) =>
    r.diagnostics.map((d) => {
      const file = d.file.slice(dir.length + 1);
      const text = typeof files[file] === 'string' ? files[file] : '';
      return { file, severity: d.severity, messageId: d.messageId, data: d.data, message: d.message, token: text.slice(d.range.start.offset, d.range.end.offset), fix: d.fix?.edits[0]?.text };
    }),
  );
}

export const lintConfigData = (ruleId: string, config: string, model = 'm'): Promise<FindingData[]> => lintFilesData(ruleId, { [`${model}/config.pbtxt`]: config }, [model]);
