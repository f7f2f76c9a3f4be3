// The contract between the lint engine and its rules. A rule is one module that exports a `Rule`:
// `meta` (what it is, for docs, settings, SARIF) and `check(ctx)` (what it finds). The engine loads
// files, runs the rules, maps value paths to source ranges, applies severities and suppressions.
//
// Writing a rule
// --------------
// 1. `src/lint/rules/<category>/<rule-id>.ts`:
//
//      export const preferredBatchSize = defineModelRule({
//        meta: {
//          id: 'preferred-batch-size',
//          category: 'correctness',
//          defaultSeverity: 'error',
//          requiresModel: false,
//          description: 'dynamic_batching preferred sizes must be positive and <= max_batch_size',
//          prevents: ['dynamic batching preferred size must be <= max batch size for <name>'],
//          messages: { tooLarge: 'preferred_batch_size {{size}} exceeds max_batch_size {{max}}; set ...' },
//        },
//        check(ctx) {
//          ctx.config.dynamic_batching?.preferred_batch_size?.forEach((size, i) => {
//            if (size > (ctx.config.max_batch_size ?? 0))
//              ctx.report({ path: ['dynamic_batching', 'preferred_batch_size', i], messageId: 'tooLarge', data: { size, max } });
//          });
//        },
//      });
//
//    - Findings are data: `meta.messages` holds the rule's message templates by id, and a report
//      names one (`messageId`) with the values of its `{{placeholders}}` (`data`, typed from the
//      template: a missing value does not compile). The engine renders the text; tests assert ids
//      and data. Extra `data` keys are kept for machine readers.
//    - A mechanical fix goes in `fix` as text edits: `ctx.edits.replaceValue(path, text)`,
//      `replaceField`, `removeField` build them from where the config writes the value. Only a fix
//      that is certainly right goes in `fix` (`lint --fix` applies it unasked); one that might be
//      wrong -- a did-you-mean, the nearest name by spelling -- goes in `suggest`, which the editor
//      and the reports offer and `lint --fix` never applies.
//
//    - Report a value path (['input', 0, 'dims', 0]); the engine points at that exact token. Pass
//      `range` only for something a path cannot name (a comment, a span inside a string).
//    - Messages quote the values and end with the fix ("...; set dims: [3,224,224]"), like buf.
//      Show the full request shape ([-1] + dims when batching) beside the model's shape.
//    - `meta.prevents` quotes Triton's message verbatim (with <placeholders>), so a user who saw it
//      in a server log finds the rule by searching the docs.
//    - `requiresModel: true` rules run only when the model's ONNX signature could be read; they get
//      it as `ctx.signature` (never undefined for them). The others may still look at it.
//    - Options: give `meta.options` a zod object with defaults; the engine validates the settings
//      file against it (errors name the file and the key) and hands the parsed value to `ctx.options`.
//    - Never read the disk: the model directory's layout is `ctx.model.layout()`, core's backend
//      autofill is `ctx.model.autofill(config)` (over `ctx.model.autofillListing()`), the effective
//      config is `ctx.model.effective()` (ctx.model is the workspace's ModelFacts), and any other path is `ctx.files` (kind, entries, text,
//      size). The workspace reads each once per run (test/architecture.test.ts checks).
// 2. Register it in `src/lint/rules/index.ts`.
// 3. `docs/rules/<rule-id>.md`: the Triton message quoted verbatim, what, why, how to fix, an example.
// 4. `test/rules/<rule-id>.test.ts`: `testRule` (test/support/rule-tester.ts) with valid and invalid
//    cases, every message id asserted with its data.
//
// Repository-scoped rules (ensembles, GPU memory across models) use `defineRepositoryRule`: `check`
// runs once per repository and sees every model in it; it reports against one model's config, and
// the engine keeps only reports on the configs being linted (so attach to a target: `ctx.isTarget(model)`).
//
// Deployment rules (`defineDeploymentRule`) run once per tritonserver a deployment declares (lint
// --deployment): they see the server as the manifest writes it (`ctx.deployment`), the models of the
// repositories it serves, and report at a place in the manifest (`at`, from the deployment's facts).
//
// Severity: the rule reports each finding with its natural severity (default: `meta.defaultSeverity`).
// A user-configured severity moves every finding of the rule by the same number of levels, clamped to
// info: a rule whose default is error and that reports error/warning/info findings, set to "warn",
// reports warning/info/info. "off" disables the rule.
import type { z } from 'zod';
import type { PathSegment, Range, Severity, TextEdit } from '../diagnostics.js';
import type { ConfigDocument } from '../config/document.js';
import type { ModelConfig } from '../config/model-config.js';
import type { ModelSignature } from '../model-file/signature.js';
import type { ModelReadError } from '../model-file/errors.js';
import type { LintSettings, RuleLevel } from './settings-types.js';
import type { GpuLoad } from '../triton/gpu-memory.js';
import type { HostShare } from '../triton/host-memory.js';
import type { ModelFacts } from '../workspace/workspace.js';
import type { PathKind } from '../util/path-kind.js';
import type { MessageValue, Placeholders } from '../util/message-template.js';
import type { DeploymentFacts, Location } from '../deployment/server.js';

export type { DeploymentFacts };

export type RuleCategory = 'correctness' | 'suspicious' | 'performance' | 'style';

export type { RuleLevel };

/** A rule's messages by id: templates whose `{{name}}` placeholders a report's data fills. */
export type MessageTemplates = Readonly<Record<string, string>>;

/** The placeholder names of a template, and what a placeholder may hold (util/message-template.ts). */

type DataFor<S extends string> = [Placeholders<S>] extends [never]
  ? { data?: Readonly<Record<string, unknown>> }
  : { data: { readonly [K in Placeholders<S>]: MessageValue } & Readonly<Record<string, unknown>> };

export interface RuleMeta<Options = undefined, Messages extends MessageTemplates = MessageTemplates> {
  /** Stable, kebab-case, part of the contract: settings, suppressions and SARIF refer to it. */
  id: string;
  category: RuleCategory;
  defaultSeverity: RuleLevel;
  /** Runs only when the model's ONNX signature was read (ctx.signature is then set). */
  requiresModel: boolean;
  /** One line, for --help style listings and SARIF shortDescription. */
  description: string;
  /** The Triton message(s) the rule prevents, verbatim; `<x>` marks substituted values. */
  prevents: string[];
  /** The rule's messages by id (see the top of this file). */
  messages: Messages;
  /** Option schema with defaults; absent for rules without options. */
  options?: z.ZodType<Options>;
  /**
   * Findings made by the engine rather than by `check` (syntax errors, suppression comments): the
   * rule exists so that it has an id, docs, a severity and SARIF metadata.
   */
  engine?: boolean;
  /**
   * Runs on configs Triton cannot read (syntax errors, a field the target release's schema lacks, a
   * config.pbtxt a server without auto-complete needs and does not find), where every other rule is
   * skipped. Default false.
   */
  unreadableConfigs?: boolean;
  /** False for rules the settings may not turn off or change (syntax errors). Default true. */
  configurable?: boolean;
}

/** A text edit in the config being linted: replace `range` with `text`. */
export type { TextEdit };

interface ReportBase {
  /** The value path the finding is about; the engine points at its exact token. */
  path?: PathSegment[];
  /** An explicit range, for what a path cannot name. Wins over `path` for the position. */
  range?: Range;
  /** Another file the finding is in (the model file); `range` then refers to it. Default: the config. */
  file?: string;
  /** The finding's natural severity; default: the rule's defaultSeverity. */
  severity?: Severity;
  /** A mechanical fix, as text edits (an undefined edit, for a value not written at one place, drops the fix). */
  fix?: { description: string; edits: readonly (TextEdit | undefined)[] };
  /** Fixes that might be wrong (a did-you-mean): offered, never applied by `lint --fix`. */
  suggest?: readonly { description: string; edits: readonly (TextEdit | undefined)[] }[];
}

/** A message of the rule by id, with the data its template needs. */
export type MessageOf<M extends MessageTemplates = MessageTemplates> = {
  [K in keyof M & string]: { messageId: K } & DataFor<M[K]>;
}[keyof M & string];

/** One finding: where it is, and a message of the rule with its data. */
export type Report<M extends MessageTemplates = MessageTemplates> = ReportBase & MessageOf<M>;

/** Builds text edits from where the config writes a value; undefined when it is not written at one place. */
export interface ConfigEdits {
  /** Replace the value at `path` (a token, a [list] or a { block }). */
  replaceValue(path: readonly PathSegment[], text: string): TextEdit | undefined;
  /** Replace the whole field at `path`, name and value, written once. */
  replaceField(path: readonly PathSegment[], text: string): TextEdit | undefined;
  /** Remove the field at `path`, written once (with its line when it is alone on it). */
  removeField(path: readonly PathSegment[]): TextEdit | undefined;
}

/** A model of the repository as rules see it: the workspace's facts about it, handed over as they are. */
export type { ModelFacts };

/**
 * The repository's files, for the facts a rule needs beyond the model's own (a file beside the
 * model file, the size of a model that is not ONNX). Rules never touch the disk themselves: the
 * workspace answers, once per path and run, with unsaved text laid over the disk.
 */
export interface RuleFiles {
  /** What is at a path (symlinks followed): 'file', 'dir', 'other', or undefined for nothing. */
  kind(path: string): PathKind | undefined;
  /** The entry names of a directory; [] when there is none. */
  names(dir: string): string[];
  /** The text of a regular file; undefined when there is none or it cannot be read. */
  text(file: string): string | undefined;
  /** The size of a regular file; undefined when there is none. */
  size(file: string): number | undefined;
  /** The path with symbolic links resolved (the path itself when it does not exist). */
  realpath(path: string): string;
}

export interface ModelContext<Options = undefined, Messages extends MessageTemplates = MessageTemplates> {
  readonly model: ModelFacts;
  /** The config file being linted (config.pbtxt or configs/<name>.pbtxt), absolute. */
  readonly file: string;
  readonly doc: ConfigDocument;
  /** `doc.value`: the config as written (no auto-complete, no normalization). */
  readonly config: ModelConfig;
  /** The ONNX model file Triton would load for the latest selected version, when there is one. */
  readonly modelFile: string | undefined;
  /** Its signature; always set for rules with requiresModel. */
  readonly signature: ModelSignature | undefined;
  /** Why the model file could not be read (missing file is not an error: modelFile is then undefined). */
  readonly modelError: ModelReadError | undefined;
  readonly settings: LintSettings;
  readonly options: Options;
  /** Whether another rule runs on this file: lets a general rule defer to a more specific one. */
  isEnabled(ruleId: string): boolean;
  /** The enabled rules that check the config against the ONNX model (requiresModel), by id. */
  readonly modelChecks: readonly string[];
  readonly files: RuleFiles;
  /** Text edits in this config, for fixes. */
  readonly edits: ConfigEdits;
  report(report: Report<Messages>): void;
}

/** What is true of the repository's models together, computed once per run by the workspace. */
export interface RepositoryFacts {
  /** What each GPU holds: every model's instances where Triton places them, with their estimated bytes. */
  gpuLoads(gpuCount: number, overheadBytes: number): GpuLoad[];
  /** The ensembles (model directories) whose steps run one of `models` (names). */
  ensemblesUsing(models: ReadonlySet<string>): string[];
  /** The models' CPU instances on a server with `gpuCount` GPUs, each a copy of its weights in host memory (of `dirs` only, when given). */
  hostShares(gpuCount: number, dirs?: readonly string[]): HostShare[];
}

export interface RepositoryContext<Options = undefined, Messages extends MessageTemplates = MessageTemplates> {
  /**
   * The repositories one server serves together (absolute): the linted model's repository, or every
   * --model-repository of the server when it is one of them. Model names are unique across them.
   */
  readonly repositories: readonly string[];
  readonly models: readonly ModelFacts[];
  /** Whether the user asked to lint this model's config.pbtxt (only targets get reports). */
  isTarget(model: ModelFacts): boolean;
  readonly repository: RepositoryFacts;
  readonly settings: LintSettings;
  readonly options: Options;
  readonly files: RuleFiles;
  /** Text edits in `model`'s config.pbtxt, for fixes. */
  edits(model: ModelFacts): ConfigEdits;
  /** Reports against `model`'s config.pbtxt; dropped unless the model is a target. */
  report(model: ModelFacts, report: Report<Messages>): void;
}

/** A finding in a deployment's manifest: where it is written. */
export type DeploymentReport<M extends MessageTemplates = MessageTemplates> = {
  readonly at: Location;
  readonly severity?: Severity;
} & MessageOf<M>;

export interface DeploymentContext<Options = undefined, Messages extends MessageTemplates = MessageTemplates> {
  readonly deployment: DeploymentFacts;
  /** The models of every repository the server serves. */
  readonly models: readonly ModelFacts[];
  /** Those the server loads when it starts (explicit mode: its --load-model names and their ensembles' steps). */
  readonly loaded: readonly ModelFacts[];
  readonly repository: RepositoryFacts;
  readonly settings: LintSettings;
  readonly options: Options;
  readonly files: RuleFiles;
  report(report: DeploymentReport<Messages>): void;
}

export interface DeploymentRule<Options = undefined, Messages extends MessageTemplates = MessageTemplates> {
  readonly scope: 'deployment';
  readonly meta: RuleMeta<Options, Messages>;
  check(ctx: DeploymentContext<Options, Messages>): void;
}

export interface ModelRule<Options = undefined, Messages extends MessageTemplates = MessageTemplates> {
  readonly scope: 'model';
  readonly meta: RuleMeta<Options, Messages>;
  check(ctx: ModelContext<Options, Messages>): void;
}

export interface RepositoryRule<Options = undefined, Messages extends MessageTemplates = MessageTemplates> {
  readonly scope: 'repository';
  readonly meta: RuleMeta<Options, Messages>;
  check(ctx: RepositoryContext<Options, Messages>): void;
}

// eslint-style `any`: a registry holds rules whose option and message types differ.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Rule = ModelRule<any, any> | RepositoryRule<any, any> | DeploymentRule<any, any>;

export function defineModelRule<Options = undefined, const Messages extends MessageTemplates = MessageTemplates>(
  rule: Omit<ModelRule<Options, Messages>, 'scope'>,
): ModelRule<Options, Messages> {
  return { scope: 'model', ...rule };
}

export function defineRepositoryRule<Options = undefined, const Messages extends MessageTemplates = MessageTemplates>(
  rule: Omit<RepositoryRule<Options, Messages>, 'scope'>,
): RepositoryRule<Options, Messages> {
  return { scope: 'repository', ...rule };
}

export function defineDeploymentRule<Options = undefined, const Messages extends MessageTemplates = MessageTemplates>(
  rule: Omit<DeploymentRule<Options, Messages>, 'scope'>,
): DeploymentRule<Options, Messages> {
  return { scope: 'deployment', ...rule };
}
