// SARIF 2.1.0 for GitHub code scanning and other SARIF viewers: one run, the rules' metadata (with a
// helpUri to each rule's docs page), one result per problem with a repo-relative location and a
// stable partialFingerprint (rule + file + value path, not the line, so an alert survives edits above it).
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LintResult, RuleDescriptor } from '../diagnostics.js';
import { reportPath, type ReportOptions } from './options.js';
import { isUrl } from '../util/display-path.js';
import { sha256Hex } from '../util/sha256.js';

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
const LEVEL = { error: 'error', warning: 'warning', info: 'note' } as const;

type Json = Record<string, unknown>;

const pascal = (id: string): string => id.replace(/(^|-)([a-z0-9])/g, (_m, _d, c: string) => c.toUpperCase());

function ruleDescriptor(meta: RuleDescriptor): Json {
  const prevents = meta.prevents.length ? ` Prevents Triton's: ${meta.prevents.map((p) => `"${p}"`).join('; ')}` : '';
  const url = meta.docsUrl;
  return {
    id: meta.id,
    name: pascal(meta.id),
    shortDescription: { text: meta.description },
    fullDescription: { text: `${meta.description}.${prevents}` },
    helpUri: url,
    help: { text: `${meta.description}. Docs: ${url}`, markdown: `${meta.description}. [Rule documentation](${url})` },
    defaultConfiguration: meta.defaultSeverity === 'off' ? { enabled: false, level: 'warning' } : { level: LEVEL[meta.defaultSeverity] },
    properties: { category: meta.category, tags: ['tritonc', meta.category], requiresModel: meta.requiresModel },
  };
}

export function toSarif(result: LintResult, options: ReportOptions = {}): Json {
  const cwd = options.cwd ?? process.cwd();
  const rules = result.rules;
  const index = new Map(rules.map((r, i) => [r.id, i]));
  const seen = new Map<string, number>();
  const results: Json[] = [];
  for (const file of result.results) {
    const shown = reportPath(file.filePath, cwd);
    // An object URL is an absolute artifact URI as it is.
    const artifact = isUrl(shown) ? { uri: shown } : isAbsolute(shown) ? { uri: pathToFileURL(shown).href } : { uri: shown, uriBaseId: '%SRCROOT%' };
    for (const d of file.diagnostics) {
      const identity = `${d.ruleId}\u0000${shown}\u0000${d.path.length ? d.path.join('.') : `${d.range.start.line}:${d.range.start.column}:${d.message}`}`;
      const hash = sha256Hex(identity).slice(0, 16);
      const n = (seen.get(hash) ?? 0) + 1;
      seen.set(hash, n);
      const fingerprint = `${hash}:${n}`;
      const res: Json = {
        ruleId: d.ruleId,
        level: LEVEL[d.severity],
        message: { text: d.message },
        locations: [
          {
            physicalLocation: {
              artifactLocation: artifact,
              region: {
                startLine: d.range.start.line,
                startColumn: d.range.start.column,
                endLine: d.range.end.line,
                endColumn: Math.max(d.range.end.column, d.range.start.column),
              },
            },
          },
        ],
        partialFingerprints: { primaryLocationLineHash: fingerprint, 'tritonc/v1': fingerprint },
      };
      const i = index.get(d.ruleId);
      if (i !== undefined) res.ruleIndex = i;
      if (d.path.length) res.properties = { path: d.path.map(String) };
      if (d.messageId) res.properties = { ...(res.properties as Json | undefined), messageId: d.messageId };
      if (d.targets) res.properties = { ...(res.properties as Json | undefined), targets: d.targets };
      // SARIF's fixes are proposals: a suggestion is one as much as a fix (which comes first).
      const proposed = [...(d.fix ? [d.fix] : []), ...(d.suggestions ?? [])];
      if (proposed.length) {
        const region = (r: (typeof proposed)[number]['edits'][number]['range']): Json => ({
          startLine: r.start.line,
          startColumn: r.start.column,
          endLine: r.end.line,
          endColumn: r.end.column,
        });
        res.fixes = proposed.map((f) => ({
          description: { text: f.description },
          artifactChanges: [
            { artifactLocation: artifact, replacements: f.edits.map((e) => ({ deletedRegion: region(e.range), insertedContent: { text: e.text } })) },
          ],
        }));
      }
      results.push(res);
    }
  }
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: result.tool.name,
            version: options.version ?? result.tool.version,
            informationUri: result.tool.informationUri,
            rules: rules.map(ruleDescriptor),
          },
        },
        originalUriBaseIds: { '%SRCROOT%': { uri: pathToFileURL(cwd.endsWith('/') ? cwd : `${cwd}/`).href } },
        columnKind: 'utf16CodeUnits',
        // The Triton releases judged against.
        properties: { triton: result.triton },
        results,
        invocations: [
          {
            executionSuccessful: !result.problems.some((p) => p.level !== 'warning'),
            toolExecutionNotifications: result.problems.map((p) => ({
              level: p.level ?? 'error',
              message: { text: p.message },
              locations: [{ physicalLocation: { artifactLocation: { uri: pathToFileURL(p.file).href } } }],
            })),
          },
        ],
      },
    ],
  };
}

export function formatSarif(result: LintResult, options: ReportOptions = {}): string {
  return `${JSON.stringify(toSarif(result, options), null, 2)}\n`;
}
