// Tests one rule as ESLint's RuleTester does (eslint lib/rule-tester/rule-tester.js): `valid` cases
// must give no finding, `invalid` cases exactly the findings listed (message id, data, severity,
// where) and, for fixes, the config `lint --fix` leaves and the configs each suggestion would make. The repository is held in memory
// (memory-files.ts) and linted by the real engine with only the rule under test, so each case
// states every file the rule sees and nothing is written to disk.
import { describe, expect, it } from 'vitest';
import type { Diagnostic, PathSegment, Severity } from '../../src/diagnostics.js';
import { lintSync, type LintOptions } from '../../src/lint/engine.js';
import { fixSync } from '../../src/lint/fix.js';
import { applyEdits } from '../../src/config/text-edits.js';
import { RULES, ruleById } from '../../src/lint/rules/index.js';
import { parseSettings } from '../../src/lint/settings.js';
import { onnxBytes, type OnnxSpec } from '../lint/harness.js';
import { memoryFiles } from './memory-files.js';
import { deploymentRunOptions, storeDirs, type DeploymentRun } from './deployment-case.js';

/** Where the in-memory repository stands. */
export const MEMORY_ROOT = '/memory-repository';

/** A file of the case: text, bytes, or an ONNX model spec (encoded by the fixture writer). */
export type CaseFile = string | Uint8Array | OnnxSpec;

export interface CaseBase {
  /** The test's title. */
  name: string;
  /** `m/config.pbtxt`, when the case is one config. */
  config?: string;
  /** Every file of the repository, relative to its root (a path ending in '/' is an empty directory). */
  files?: Record<string, CaseFile>;
  /** What is linted, relative to the root (default ['m']). */
  targets?: string[];
  /** tritonc.config.json's content for the run (the rule's options under rules.<id>.options, server flags). */
  settings?: Record<string, unknown>;
  /** Other options of the run (server flags, --gpus, --configs-only). */
  options?: Omit<LintOptions, 'files' | 'rules' | 'settings' | 'cwd' | 'workspace'>;
  /**
   * A manifest among `files` (relative to the root) whose first tritonserver serves the repository
   * (the root, for each --model-repository it names), as lint --deployment runs it; targets default to
   * the whole repository and findings to the manifest.
   */
  deployment?: string;
  /** Where each repository the deployment names is read, relative to the root (default: the root for all). */
  served?: Record<string, string>;
}

export interface ExpectedFinding {
  messageId: string;
  /** Placeholder values (and other data) the finding must carry; keys not listed are not compared. */
  data?: Record<string, unknown>;
  severity?: Severity;
  /** The value path it is about. */
  path?: PathSegment[];
  /** The 1-based line it points at. */
  line?: number;
  /** The text it points at. */
  token?: string;
  /** The file it is in, relative to the root (default: the first target's config). */
  file?: string;
}

export interface InvalidCase extends CaseBase {
  errors: ExpectedFinding[];
  /** The first target's config after `lint --fix`; null when the rule offers no fix. Not compared when absent. */
  output?: string | null;
  /** The first target's config after each suggestion of its findings (in order): offered, never applied by --fix. Not compared when absent. */
  suggestions?: string[];
}

export interface RuleCases {
  valid: (CaseBase | string)[];
  invalid: InvalidCase[];
}

const asCase = (c: CaseBase | string, i: number): CaseBase => (typeof c === 'string' ? { name: `valid #${i + 1}`, config: c } : c);

function filesOf(c: CaseBase): Record<string, string | Uint8Array> {
  const out: Record<string, string | Uint8Array> = {};
  if (c.config !== undefined) out['m/config.pbtxt'] = c.config;
  for (const [path, content] of Object.entries(c.files ?? {}))
    out[path] = typeof content === 'string' || content instanceof Uint8Array ? content : onnxBytes(content);
  return out;
}

/** The case's deployment as lint --deployment makes its run (deployment/lint-options.ts), every store read at the root. */
function deploymentRun(c: CaseBase): DeploymentRun | undefined {
  if (c.deployment === undefined) return undefined;
  const text = filesOf(c)[c.deployment];
  if (typeof text !== 'string') throw new Error(`the case has no manifest ${c.deployment}`);
  return deploymentRunOptions(text, `${MEMORY_ROOT}/${c.deployment}`, storeDirs(c.served, MEMORY_ROOT), MEMORY_ROOT);
}

function lintOptions(ruleId: string, c: CaseBase): LintOptions {
  const rule = ruleById(ruleId);
  if (!rule) throw new Error(`no rule ${ruleId}`);
  return {
    ...deploymentRun(c)?.options,
    ...c.options,
    cwd: MEMORY_ROOT,
    files: memoryFiles(MEMORY_ROOT, filesOf(c)),
    rules: [rule],
    settings: parseSettings(c.settings ?? {}, `${MEMORY_ROOT}/tritonc.config.json`, RULES),
  };
}

const targetsOf = (c: CaseBase): string[] => (c.targets ? c.targets.map((t) => `${MEMORY_ROOT}/${t}`) : (deploymentRun(c)?.served ?? [`${MEMORY_ROOT}/m`]));

/** The findings of the rule on the case's repository. */
export function findingsOf(ruleId: string, c: CaseBase): Diagnostic[] {
  return lintSync(targetsOf(c), lintOptions(ruleId, c)).results.flatMap((r) => r.diagnostics);
}

/**
 * Every rule's findings on a repository held in memory (files relative to its root, all of it
 * linted), each with the placeholders of it that hold prose (proseInPlaceholders, the file's own
 * text excepted): what the measurement of test/rules/coverage.test.ts counts.
 */
export function proseOfAllRules(files: Record<string, CaseFile>): { findings: Diagnostic[]; prose: string[] } {
  const c: CaseBase = { name: 'all rules', files };
  const texts = filesOf(c);
  const findings = lintSync([MEMORY_ROOT], { cwd: MEMORY_ROOT, files: memoryFiles(MEMORY_ROOT, texts), rules: RULES }).results.flatMap((r) => r.diagnostics);
  const textOf = (d: Diagnostic): string | undefined => {
    const t = texts[d.file.slice(MEMORY_ROOT.length + 1)];
    return typeof t === 'string' ? t : undefined;
  };
  return { findings, prose: findings.flatMap((d) => proseInPlaceholders(d, textOf(d))) };
}

function firstConfig(c: CaseBase): string {
  const files = filesOf(c);
  const target = (c.targets ?? ['m'])[0]!;
  return target.endsWith('.pbtxt') ? target : (Object.keys(files).find((f) => f === `${target}/config.pbtxt`) ?? `${target}/config.pbtxt`);
}

function tokenOf(c: CaseBase, d: Diagnostic): string {
  const text = filesOf(c)[d.file.slice(MEMORY_ROOT.length + 1)];
  return typeof text === 'string' ? text.slice(d.range.start.offset, d.range.end.offset) : '';
}

function compare(c: InvalidCase, found: Diagnostic[]): void {
  const shown = found.map((d) => `${d.messageId} ${d.file.slice(MEMORY_ROOT.length + 1)}:${d.range.start.line}: ${d.message}`);
  expect(found.length, `expected ${c.errors.length} finding(s), got:\n${shown.join('\n')}`).toBe(c.errors.length);
  c.errors.forEach((want, i) => {
    const d = found[i]!;
    expect(d.messageId, shown[i]).toBe(want.messageId);
    if (want.data) expect(d.data, shown[i]).toMatchObject(want.data);
    if (want.severity) expect(d.severity, shown[i]).toBe(want.severity);
    if (want.path) expect(d.path, shown[i]).toEqual(want.path);
    if (want.line !== undefined) expect(d.range.start.line, shown[i]).toBe(want.line);
    if (want.token !== undefined) expect(tokenOf(c, d), shown[i]).toBe(want.token);
    expect(d.file.slice(MEMORY_ROOT.length + 1), shown[i]).toBe(want.file ?? c.deployment ?? firstConfig(c));
    // Every placeholder of the message is filled: no '{{' left in the text.
    expect(d.message, shown[i]).not.toMatch(/\{\{/);
    expect(proseInPlaceholders(d), shown[i]).toEqual([]);
  });
}

/**
 * Placeholders hold values (names, numbers, config text), never wording: each wording is a message
 * of its own. A value with three words in a row outside quotes and brackets is wording, unless it is
 * text of the linted file (`fileText`: a value the config wrote). No rule has an allowance.
 */
export function proseInPlaceholders(d: Diagnostic, fileText?: string): string[] {
  const template = ruleById(d.ruleId)?.meta.messages[d.messageId ?? ''] ?? '';
  const names = [...template.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]!);
  const prose = (v: unknown): v is string => typeof v === 'string' && isProse(v) && !fileText?.includes(v);
  return [...new Set(names)].filter((n) => prose(d.data?.[n])).map((n) => `${d.ruleId}.${d.messageId} {{${n}}} = ${JSON.stringify(d.data![n])}`);
}

const isProse = (value: string): boolean => /\b[a-z]{2,} [a-z]{2,} [a-z]{2,}\b/i.test(value.replace(/'[^']*'|"[^"]*"|`[^`]*`|\[[^\]]*\]|\{[^}]*\}/g, ''));

/** Registers the rule's cases with vitest. */
export function testRule(ruleId: string, cases: RuleCases): void {
  describe(ruleId, () => {
    describe('valid', () => {
      cases.valid.map(asCase).forEach((c) => {
        it(c.name, () => {
          const found = findingsOf(ruleId, c);
          expect(found.map((d) => `${d.messageId}: ${d.message}`)).toEqual([]);
        });
      });
    });
    describe('invalid', () => {
      for (const c of cases.invalid) {
        it(c.name, () => {
          const found = findingsOf(ruleId, c);
          compare(c, found);
          if (c.suggestions !== undefined) {
            const text = filesOf(c)[firstConfig(c)] as string;
            const mine = found.filter((d) => d.file === `${MEMORY_ROOT}/${firstConfig(c)}`);
            expect(mine.flatMap((d) => (d.suggestions ?? []).map((s) => applyEdits(text, s.edits)))).toEqual(c.suggestions);
          }
          if (c.output === undefined) return;
          const run = fixSync(targetsOf(c), lintOptions(ruleId, c));
          const fixed = run.files.find((f) => f.file === `${MEMORY_ROOT}/${firstConfig(c)}`);
          if (c.output === null) expect(fixed?.after, 'the rule offers no fix here').toBeUndefined();
          else expect(fixed?.after ?? filesOf(c)[firstConfig(c)]).toBe(c.output);
        });
      }
    });
  });
}
