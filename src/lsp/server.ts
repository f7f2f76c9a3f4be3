// `tritonc lsp --stdio`: a Language Server Protocol 3.17 server for config.pbtxt, configs/*.pbtxt and
// any file headed `# proto-message: inference.ModelConfig`. One long-lived workspace holds the
// repository; each open document's unsaved text is laid over the disk, so diagnostics are those of
// `tritonc lint` on the buffer as if saved, against the model files and sibling configs on disk.
// Every request runs guarded: a failure answers that request with an error and the server goes on.
import { knownParameterKeys } from '../triton/backend-parameters.js';
import { PieceDocuments, documentLength } from './piece-document.js';
import { collectWhenIdle } from './idle-collect.js';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  CodeActionKind,
  DiagnosticSeverity,
  DidChangeWatchedFilesNotification,
  ProposedFeatures,
  ResponseError,
  StreamMessageWriter,
  TextDocumentSyncKind,
  TextDocuments,
  createConnection,
  type CodeAction,
  type CompletionItem,
  type Connection,
  type Diagnostic as LspDiagnostic,
  type InitializeResult,
} from 'vscode-languageserver/node.js';
import { CompletionItemKind, InlayHintKind, InsertTextFormat, MarkupKind, type InlayHint } from 'vscode-languageserver';
import { snippets, type SnippetFacts, type StepModel } from './snippets.js';
import { typeName } from '../triton/data-types.js';
import { findTargets } from '../generate/targets.js';
import { generateForTarget } from '../generate/run.js';
import type { PathSegment } from '../diagnostics.js';
import type { ModelConfig } from '../config/model-config.js';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic, TextEdit } from '../diagnostics.js';
import { formatFileText, type FormatResult } from '../config/format.js';
import { parseConfig, type ConfigDocument } from '../config/document.js';
import { loadSchema } from '../config/schema.js';
import { lintSync } from '../lint/engine.js';
import { findSettingsFile, loadSettingsFile } from '../lint/settings.js';
import { RULES } from '../lint/rules/index.js';
import { ruleDocsUrl } from '../lint/docs-url.js';
import { KNOWN_BACKENDS } from '../triton/backend-records.js';
import { Workspace } from '../workspace/workspace.js';
import { COMPLETION_WINDOW, cursorPlace, valueBeforeCursor } from './cursor.js';
import { PeekingReader, afterShutdown } from './transport.js';
import { valueAt } from '../config/value-path.js';
import { PLATFORM_NAMES, backendOfPlatform } from '../triton/backend-records.js';
import { DEFAULT_TARGET, targetLabel, type TritonTarget } from '../triton/releases/target.js';
import { fieldMeaningIn, fieldReleases, releaseHasField } from '../triton/schema-releases.js';

const pathLabel = (path: readonly PathSegment[]): string => path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i ? `.${p}` : p)).join('');

/** The text-proto header that names the message a file holds (txtpbfmt's and buf's convention). */
export const CONFIG_HEADER = /^#\s*proto-message:\s*inference\.ModelConfig\b/;

/** Whether tritonc serves this document: Triton's config names, or the header within its first lines. */
export function isConfigDocument(path: string, text: string): boolean {
  if (/(^|\/)config\.pbtxt$/.test(path) || /\/configs\/[^/]+\.pbtxt$/.test(path)) return true;
  return text.split('\n', 5).some((line) => CONFIG_HEADER.test(line));
}

/**
 * A document this large (a config of megabytes: its lint takes a good part of a second, one of 200 KB
 * a few ms) is linted once its edits pause, for half its last lint's time, at most MAX_LINT_PAUSE_MS.
 */
const PAUSING_DOCUMENT_CHARS = 1 << 20;
const MAX_LINT_PAUSE_MS = 250;

const SEVERITY: Record<Diagnostic['severity'], DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
};

/** A connection over stdin and stdout whose reader exits on a frame it cannot read, and notes queued edits; after shutdown, only exit. */
function stdioConnection(): { connection: Connection; reader: PeekingReader } {
  const reader = new PeekingReader(process.stdin, (e) => {
    process.stderr.write(`tritonc lsp: cannot read a message from the editor (${e.message.split('\n')[0]}); exiting, so the editor starts the server again\n`);
    process.exit(1);
  });
  const writer = new StreamMessageWriter(process.stdout);
  return { connection: createConnection(ProposedFeatures.all, reader, writer, { messageStrategy: afterShutdown(writer) }), reader };
}

export function startLanguageServer(given?: Connection): Connection {
  const { connection, reader } = given ? { connection: given, reader: undefined } : stdioConnection();
  // Pieces, not one string per edit: a storm of edits on a large config copies it once per read, not per keystroke.
  const documents = new TextDocuments(PieceDocuments);
  const workspace = new Workspace({ acrossRuns: true });
  /** The file a document URI names; undefined for one that names no local file (another scheme, a host, an encoded slash). */
  const pathOf = (uri: string): string | undefined => {
    if (!uri.startsWith('file:')) return undefined;
    try {
      return fileURLToPath(uri);
    } catch {
      return undefined;
    }
  };

  const lspRange = (doc: TextDocument, r: { start: { offset: number }; end: { offset: number } }) => ({
    start: doc.positionAt(r.start.offset),
    end: doc.positionAt(r.end.offset),
  });
  const lspEdit = (doc: TextDocument, e: TextEdit) => ({ range: lspRange(doc, e.range), newText: e.text });

  const toLsp = (doc: TextDocument, d: Diagnostic): LspDiagnostic => ({
    range: lspRange(doc, d.range),
    severity: SEVERITY[d.severity],
    code: d.ruleId,
    codeDescription: { href: ruleDocsUrl(d.ruleId) },
    source: 'tritonc',
    message: d.message,
    ...(d.fix || d.suggestions
      ? {
          data: {
            ...(d.fix ? { fix: { title: d.fix.description, edits: d.fix.edits.map((e) => lspEdit(doc, e)) } } : {}),
            ...(d.suggestions ? { suggestions: d.suggestions.map((s) => ({ title: s.description, edits: s.edits.map((e) => lspEdit(doc, e)) })) } : {}),
          },
        }
      : {}),
  });

  /** The Triton a document is judged against: its settings file's `triton`, as lint reads it; the newest when none says. */
  const targetOf = (path: string): TritonTarget => {
    const file = findSettingsFile(path);
    try {
      return file ? loadSettingsFile(file, RULES).server.target : DEFAULT_TARGET;
    } catch {
      // A settings file tritonc cannot read: lint's diagnostics say so; completion and hover go on.
      return DEFAULT_TARGET;
    }
  };

  /** Lints one open document as if saved, and publishes what tritonc finds in it. */
  const validate = (doc: TextDocument): void => {
    const path = pathOf(doc.uri);
    if (!path || !isConfigDocument(path, doc.getText())) return;
    overlay(doc, path);
    let diagnostics: LspDiagnostic[];
    try {
      const result = lintSync([path], { cwd: dirname(path), workspace });
      diagnostics = result.results
        .filter((r) => r.filePath === path)
        .flatMap((r) => r.diagnostics)
        .map((d) => toLsp(doc, d));
    } catch (e) {
      // A settings file or a directory tritonc cannot read: said on the first line, not a crash.
      diagnostics = [
        {
          range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
          severity: DiagnosticSeverity.Error,
          source: 'tritonc',
          message: (e as Error).message,
        },
      ];
    }
    void connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics });
  };

  /**
   * Each open document's parse, made once per version: hover, completion, definition and inlay hints
   * read it, however many of them come. A config document's is the workspace's parse of its unsaved
   * text, the one its lint reads (Workspace.config of the overlay, kept while the text is the same).
   * Kept with its text, not the version alone (a client may open a document again, at version 1 with
   * other text); dropped on the next change and on close.
   */
  const parses = new Map<string, { version: number; text: string; parsed: ConfigDocument }>();
  const parsedDocument = (doc: TextDocument, path: string): ConfigDocument => {
    const text = doc.getText();
    const kept = parses.get(doc.uri);
    if (kept?.version === doc.version && kept.text === text) return kept.parsed;
    let parsed: ConfigDocument | undefined;
    if (isConfigDocument(path, text)) {
      if (overlaid.get(doc.uri) !== text) overlay(doc, path);
      const read = workspace.config(path);
      if ('value' in read) parsed = read;
    }
    parsed ??= parseConfig(text, path);
    parses.set(doc.uri, { version: doc.version, text, parsed });
    return parsed;
  };
  /** Each open document's formatting, of one version (dropped with its parse). */
  const formatted = new Map<string, { version: number; text: string; canonical: boolean; result: FormatResult }>();
  /** The text of each open document that the workspace holds over the disk. */
  const overlaid = new Map<string, string>();
  const overlay = (doc: TextDocument, path: string): void => {
    workspace.setText(path, doc.getText());
    overlaid.set(doc.uri, doc.getText());
  };

  /** Runs a request handler; an exception answers the request with an error instead of ending the server. */
  const guarded =
    <P, R>(name: string, handler: (params: P) => R) =>
    (params: P): R | ResponseError<void> => {
      try {
        return handler(params);
      } catch (e) {
        connection.console.error(`tritonc: ${name} failed: ${(e as Error).stack ?? String(e)}`);
        return new ResponseError<void>(-32603, `tritonc: ${name} failed: ${(e as Error).message}`);
      }
    };

  /** Whether the editor expands snippets (its completion capabilities say so); snippets are offered only then. */
  let snippetSupport = false;
  connection.onInitialize((params): InitializeResult => ({
    ...((snippetSupport = params.capabilities.textDocument?.completion?.completionItem?.snippetSupport === true), {}),
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
      documentFormattingProvider: true,
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
      hoverProvider: true,
      completionProvider: { triggerCharacters: [':', ' ', '"'] },
      definitionProvider: true,
      inlayHintProvider: true,
    },
    serverInfo: { name: 'tritonc' },
  }));

  connection.onInitialized(() => {
    // Model files and sibling configs change outside the editor: ask to hear of them (where the client can).
    void connection.client
      .register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: '**/*.{pbtxt,onnx,json}' }, { globPattern: '**/config.pbtxt' }] })
      .catch(() => {});
  });

  /** The version of each open document whose diagnostics were published last, and the lints waiting. */
  const linted = new Map<string, number>();
  const waiting = new Map<string, { cancel: () => void }>();
  /** How long each open document's last lint took (ms): a large one waits for a pause in the edits. */
  const lintCost = new Map<string, number>();
  // An open fires onDidChangeContent too (TextDocuments): each version is linted once, and not at all
  // when a newer edit of the document is already read and queued. The lint waits for the next turn
  // of the event loop, whose poll reads what the editor has sent meanwhile: an edit storm lints the
  // last version only, so a hover behind it waits for one lint, not a hundred. A large document
  // (PAUSING_DOCUMENT_CHARS) waits besides for the edits to pause for half its last lint's time: edits
  // faster than that cost one lint when they stop, not one lint after another while they come (each
  // lint of a large document leaves its parse for the collector).
  const lintWhenDue = (uri: string): void => {
    const doc = documents.get(uri);
    if (!doc || linted.get(uri) === doc.version || reader?.newerQueued(uri, doc.version)) return;
    linted.set(uri, doc.version);
    const started = performance.now();
    guarded('diagnostics', validate)(doc);
    lintCost.set(uri, performance.now() - started);
    collectWhenIdle(() => waiting.size > 0);
  };
  documents.onDidChangeContent((e) => {
    const uri = e.document.uri;
    // An edit has a new version: drop what was kept without reading the text (that would join the
    // pieces at every keystroke). An open at a kept version compares the text.
    const unchanged = (kept: { version: number; text: string } | undefined): boolean =>
      kept !== undefined && kept.version === e.document.version && kept.text === e.document.getText();
    if (!unchanged(parses.get(uri))) parses.delete(uri);
    if (!unchanged(formatted.get(uri))) formatted.delete(uri);
    const due = (): void => {
      waiting.delete(uri);
      lintWhenDue(uri);
    };
    if (documentLength(e.document) >= PAUSING_DOCUMENT_CHARS) {
      // Each edit starts the pause again.
      waiting.get(uri)?.cancel();
      const timer = setTimeout(due, Math.min((lintCost.get(uri) ?? 0) / 2, MAX_LINT_PAUSE_MS));
      waiting.set(uri, { cancel: () => clearTimeout(timer) });
      return;
    }
    if (waiting.has(uri)) return;
    const immediate = setImmediate(due);
    waiting.set(uri, { cancel: () => clearImmediate(immediate) });
  });
  documents.onDidClose((e) => {
    linted.delete(e.document.uri);
    parses.delete(e.document.uri);
    formatted.delete(e.document.uri);
    overlaid.delete(e.document.uri);
    // A reopen read after this close sets it again: nothing of a closed document is kept.
    reader?.newest.delete(e.document.uri);
    waiting.get(e.document.uri)?.cancel();
    waiting.delete(e.document.uri);
    lintCost.delete(e.document.uri);
    const path = pathOf(e.document.uri);
    if (path) workspace.clearOverlay(path);
    void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });

  connection.onDidChangeWatchedFiles(
    guarded('watched files', (params) => {
      for (const change of params.changes) {
        const path = pathOf(change.uri);
        if (path && !documents.get(change.uri)) workspace.forget(path);
      }
      for (const doc of documents.all()) validate(doc);
    }),
  );

  connection.onDocumentFormatting(
    guarded('formatting', (params) => {
      const doc = documents.get(params.textDocument.uri);
      if (!doc) return [];
      // Exactly what `tritonc fmt` writes; a document that does not parse is left alone.
      const path = pathOf(doc.uri);
      // The settings file's fmt.style, as tritonc fmt reads it.
      const file = path ? findSettingsFile(path) : undefined;
      const canonical = file ? loadSettingsFile(file, RULES).fmt.style === 'canonical' : false;
      // Formatted once per version and style: the formatter parses in its own way (streaming, no ranges).
      const kept = formatted.get(doc.uri);
      const text = doc.getText();
      const r = kept?.text === text && kept.canonical === canonical ? kept.result : formatFileText(text, path ?? 'config.pbtxt', { canonical });
      formatted.set(doc.uri, { version: doc.version, text, canonical, result: r });
      if (r.status !== 'formatted' || !r.changed) return [];
      return [{ range: { start: doc.positionAt(0), end: doc.positionAt(doc.getText().length) }, newText: r.output }];
    }),
  );

  connection.onCodeAction(
    guarded('code actions', (params) => {
      const doc = documents.get(params.textDocument.uri);
      if (!doc) return [];
      const actions: CodeAction[] = [];
      for (const d of params.context.diagnostics) {
        type Action = { title: string; edits: { range: LspDiagnostic['range']; newText: string }[] };
        const data = d.data as { fix?: Action; suggestions?: Action[] } | undefined;
        // A fix is the preferred action (certainly right); a suggestion is offered, never preferred.
        if (data?.fix)
          actions.push({
            title: `${data.fix.title} (${String(d.code)})`,
            kind: CodeActionKind.QuickFix,
            diagnostics: [d],
            isPreferred: true,
            edit: { changes: { [doc.uri]: data.fix.edits } },
          });
        for (const s of data?.suggestions ?? [])
          actions.push({
            title: `${s.title}? (${String(d.code)})`,
            kind: CodeActionKind.QuickFix,
            diagnostics: [d],
            isPreferred: false,
            edit: { changes: { [doc.uri]: s.edits } },
          });
      }
      return actions;
    }),
  );

  connection.onHover(
    guarded('hover', (params) => {
      const doc = documents.get(params.textDocument.uri);
      const path = doc && pathOf(doc.uri);
      if (!doc || !path) return null;
      const parsed = parsedDocument(doc, path);
      const place = cursorPlace(parsed.tree, loadSchema().modelConfig, doc.offsetAt(params.position));
      const f = place.field;
      if (!f?.schema) return null;
      const t = f.schema.type;
      const typeName = t.kind === 'scalar' ? t.type : t.kind === 'enum' ? `enum ${t.enum.fullName}` : `message ${t.message.fullName}`;
      const lines = [`**${f.schema.name}**: ${f.schema.repeated && !f.schema.mapEntry ? 'repeated ' : ''}${f.schema.mapEntry ? 'map' : typeName}`];
      if (f.schema.doc) lines.push('', f.schema.doc);
      lines.push('', `field ${f.schema.number} of ${f.schema.parent.fullName}`);
      // The release it arrived in, and what the target makes of it (triton/schema-releases.ts).
      const arrived = fieldReleases(f.schema);
      if (arrived) {
        const target = targetOf(path);
        const has = releaseHasField(f.schema, target.release);
        lines.push('', `Triton has it from ${arrived.since} on; ${has ? '' : 'not '}in ${targetLabel(target)}, the release tritonc judges against`);
        const meaning = fieldMeaningIn(f.schema, target.release);
        if (has && meaning) lines.push('', `In ${targetLabel(target)}: ${meaning}`);
      }
      if (t.kind !== 'message' && !f.schema.repeated)
        lines.push('', `Triton's default: \`${t.kind === 'enum' ? t.enum.names[0] : t.type === 'string' ? '""' : t.type === 'bool' ? 'false' : '0'}\``);
      // What Triton will really use: the effective config's value at this path.
      const effective = workspace.model(dirname(path)).effective();
      if (effective.status === 'ok') {
        const v = valueAt(effective.config, f.path);
        // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a config scalar: string, number, bigint or boolean
        if (v !== undefined && typeof v !== 'object') lines.push('', `Triton will use: \`${String(v)}\``);
      }
      return { contents: { kind: MarkupKind.Markdown, value: lines.join('\n') }, range: lspRange(doc, f.onName ? f.node.nameRange : f.node.range) };
    }),
  );

  connection.onCompletion(
    guarded('completion', (params): CompletionItem[] => {
      const doc = documents.get(params.textDocument.uri);
      const path = doc && pathOf(doc.uri);
      if (!doc || !path) return [];
      const text = doc.getText();
      const offset = doc.offsetAt(params.position);
      // The line before the cursor, at most a window of it: a 160,000-character line costs no more.
      const lineStart = Math.max(text.lastIndexOf('\n', offset - 1) + 1, offset - COMPLETION_WINDOW);
      const value = valueBeforeCursor(text.slice(lineStart, offset));
      const parsed = parsedDocument(doc, path);
      const place = cursorPlace(parsed.tree, loadSchema().modelConfig, offset);
      const tensors = value && place.message ? tensorNames(path, parsed.value, place.message.fullName, place.messagePath, value.field) : undefined;
      if (tensors) return tensors.map((label) => ({ label, kind: CompletionItemKind.Variable, insertText: value!.quoted ? label : `"${label}"` }));
      if (value && place.message) {
        const field = place.message.fields.get(value.field);
        if (field?.type.kind === 'enum') {
          const docs = field.type.enum.docs;
          return field.type.enum.names.map((label) => ({
            label,
            kind: CompletionItemKind.EnumMember,
            ...(docs?.get(label) ? { documentation: docs.get(label) } : {}),
          }));
        }
        const quoted = (labels: readonly string[], kind: CompletionItemKind) =>
          labels.map((label) => ({ label, kind, insertText: value.quoted ? label : `"${label}"` }));
        if (value.field === 'backend') return quoted(KNOWN_BACKENDS, CompletionItemKind.Value);
        if (value.field === 'platform') return quoted(PLATFORM_NAMES, CompletionItemKind.Value);
        if (value.field === 'model_name')
          return quoted(
            workspace
              .repository(dirname(dirname(path)))
              .modelDirs()
              .map((d) => basename(d)),
            CompletionItemKind.Module,
          );
        // A model-level parameters entry: the keys its backend reads.
        if (value.field === 'key' && place.message.fullName === 'inference.ModelConfig.ParametersEntry' && place.messagePath.length <= 2) {
          const backend = parsed.value.backend || backendOfPlatform(parsed.value.platform ?? '') || '';
          return quoted(knownParameterKeys(backend, targetOf(path).release), CompletionItemKind.Property);
        }
        return [];
      }
      // The fields of the message the cursor stands in, and nothing from other messages; then the snippets of it.
      // Only the fields the target release has: its parser refuses the others.
      const release = targetOf(path).release;
      const fields: CompletionItem[] = [...(place.message?.fields.values() ?? [])]
        .filter((f) => releaseHasField(f, release))
        .map((f) => ({
          label: f.name,
          kind: f.type.kind === 'message' ? CompletionItemKind.Struct : CompletionItemKind.Field,
          detail: f.type.kind === 'scalar' ? f.type.type : f.type.kind === 'enum' ? f.type.enum.fullName : f.type.message.fullName,
          ...(f.doc ? { documentation: f.doc } : {}),
        }));
      if (!snippetSupport || !place.message || (place.message.fullName === 'inference.ModelConfig' && place.messagePath.length > 0)) return fields;
      const items = snippets(snippetFacts(path, parsed.value, place.message.fullName));
      return [
        ...fields,
        ...items.map((sn, i): CompletionItem => ({
          label: sn.label,
          kind: CompletionItemKind.Snippet,
          detail: sn.detail,
          insertText: sn.body,
          insertTextFormat: InsertTextFormat.Snippet,
          sortText: `~${String(i).padStart(3, '0')}`,
        })),
      ];
    }),
  );

  connection.onDefinition(
    guarded('definition', (params) => {
      const doc = documents.get(params.textDocument.uri);
      const path = doc && pathOf(doc.uri);
      if (!doc || !path) return null;
      const parsed = parsedDocument(doc, path);
      const f = cursorPlace(parsed.tree, loadSchema().modelConfig, doc.offsetAt(params.position)).field;
      if (!f || f.node.value.kind !== 'scalar' || typeof f.node.value.value !== 'string') return null;
      const name = f.node.value.value;
      const repo = dirname(dirname(path));
      // An ensemble step's model_name: that model's config.
      if (f.node.name === 'model_name') {
        const target = join(repo, name, 'config.pbtxt');
        if (workspace.tree.kind(target) !== 'file') return null;
        return { uri: pathToFileURL(target).href, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } };
      }
      // A key of a step's input_map / output_map: the tensor's declaration in the step model's config.
      const step = stepOf(parsed.value, f.path);
      if (f.node.name !== 'key' || !step) return null;
      const target = join(repo, step.model, 'config.pbtxt');
      const other = workspace.config(target);
      if (!('value' in other)) return null;
      const side = step.map === 'input_map' ? 'input' : 'output';
      const index = (other.value[side] ?? []).findIndex((t) => t.name === name);
      if (index < 0) return null;
      const loc = other.locateExact([side, index, 'name']);
      const r = loc?.value;
      if (!r) return null;
      const otherDoc = TextDocument.create(pathToFileURL(target).href, 'pbtxt', 0, other.text);
      return { uri: otherDoc.uri, range: lspRange(otherDoc, r) };
    }),
  );

  // What Triton fills in when it loads the model (core's autofill and normalization, the ONNX Runtime
  // backend's auto-complete), beside the line it concerns: the end of the nearest field written.
  connection.languages.inlayHint.on(
    guarded('inlay hints', (params): InlayHint[] => {
      const doc = documents.get(params.textDocument.uri);
      const path = doc && pathOf(doc.uri);
      if (!doc || !path) return [];
      const parsed = parsedDocument(doc, path);
      if (parsed.diagnostics.some((d) => d.severity === 'error')) return [];
      const effective = workspace.model(dirname(path)).effective();
      if (effective.status !== 'ok') return [];
      const hints: InlayHint[] = [];
      const text = doc.getText();
      for (const s of effective.steps) {
        if (s.action === 'note' || s.value === undefined || s.stage === 'repository') continue;
        // The nearest written ancestor of the path; a field written nowhere goes after the first line.
        let at: { end: { offset: number } } | undefined;
        for (let n = s.path.length; n > 0 && !at; n--) at = parsed.locateExact(s.path.slice(0, n))?.field;
        const offset = at ? at.end.offset : Math.max(0, text.indexOf('\n'));
        const lineEnd = text.indexOf('\n', offset);
        const position = doc.positionAt(lineEnd < 0 ? text.length : lineEnd);
        if (position.line < params.range.start.line || position.line > params.range.end.line) continue;
        // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a config scalar: string, number, bigint or boolean
        const value = typeof s.value === 'object' ? JSON.stringify(s.value) : String(s.value);
        hints.push({
          position,
          label: ` ${s.stage}: ${pathLabel(s.path)} = ${value.length > 60 ? `${value.slice(0, 57)}...` : value}`,
          kind: InlayHintKind.Parameter,
          tooltip: s.reason,
          paddingLeft: true,
        });
      }
      return hints;
    }),
  );

  /** An ensemble step's model and map at a value path (…, 'step', i, 'input_map' | 'output_map', …). */
  function stepOf(config: ModelConfig, at: readonly PathSegment[]): { model: string; map: 'input_map' | 'output_map' } | undefined {
    const i = at.indexOf('step');
    const index = at[i + 1];
    const map = at[i + 2];
    if (i < 0 || typeof index !== 'number' || (map !== 'input_map' && map !== 'output_map')) return undefined;
    const model = config.ensemble_scheduling?.step?.[index]?.model_name;
    return model ? { model, map } : undefined;
  }

  /**
   * The tensor names that fit where the cursor is: the ONNX model's inputs (outputs) in an input
   * (output) name, a step model's inputs (outputs) as an input_map (output_map) key, the ensemble's
   * tensors as a map value. Undefined where no tensor name goes.
   */
  /** What the snippets are filled from: the model file beside the config, and the repository's models. */
  function snippetFacts(path: string, config: ModelConfig, message: string): SnippetFacts {
    const dir = dirname(path);
    const model = workspace.model(dir);
    const file = model.modelFile(config);
    const signature = file.path ? workspace.signature(file.path, file.format).signature : undefined;
    let generated: SnippetFacts['generated'];
    const found = findTargets(dir, workspace);
    const target = 'targets' in found ? found.targets[0] : undefined;
    if (target) {
      const outcome = generateForTarget(target, { options: undefined, cwd: dir, workspace });
      // The body only: the header would make the file tritonc's to regenerate.
      if (outcome.kind === 'generated')
        generated = {
          text: outcome.text
            .split('\n')
            .filter((l) => !l.startsWith('#'))
            .join('\n'),
          from: relative(dir, target.modelFile),
        };
    }
    const models: StepModel[] = [];
    for (const d of workspace.repository(dirname(dir)).modelDirs()) {
      if (d === dir || models.length >= 12) continue;
      const c = workspace.model(d).effective().config;
      if (!c) continue;
      const tensors = (list: ModelConfig['input']) =>
        (list ?? []).map((t) => ({ name: t.name ?? '', dataType: typeName(t.data_type), dims: (t.dims ?? []).map(Number) }));
      models.push({ name: basename(d), maxBatchSize: c.max_batch_size ?? 0, inputs: tensors(c.input), outputs: tensors(c.output) });
    }
    return { message, config, modelName: basename(dir), ...(generated ? { generated } : {}), ...(signature ? { modelInputs: signature.inputs } : {}), models };
  }

  function tensorNames(path: string, config: ModelConfig, message: string, messagePath: readonly PathSegment[], field: string): string[] | undefined {
    const dir = dirname(path);
    if ((message === 'inference.ModelInput' || message === 'inference.ModelOutput') && field === 'name') {
      const file = workspace.model(dir).modelFile(config);
      const signature = file.path ? workspace.signature(file.path, file.format).signature : undefined;
      return signature
        ? (message === 'inference.ModelInput' ? [...signature.inputs, ...signature.overridableInitializers] : signature.outputs).map((t) => t.name)
        : undefined;
    }
    const step = stepOf(config, messagePath);
    if (!step || (field !== 'key' && field !== 'value')) return undefined;
    if (field === 'key') {
      const effective = workspace.model(join(dirname(dir), step.model)).effective();
      const c = effective.config;
      return c ? ((step.map === 'input_map' ? c.input : c.output) ?? []).map((t) => t.name ?? '').filter(Boolean) : undefined;
    }
    // A map value is an ensemble tensor: the ensemble's inputs and outputs and what the steps write.
    const written = (config.ensemble_scheduling?.step ?? []).flatMap((s) => Object.values(s.output_map ?? {}));
    return [...new Set([...(config.input ?? []).map((t) => t.name ?? ''), ...(config.output ?? []).map((t) => t.name ?? ''), ...written])].filter(Boolean);
  }

  documents.listen(connection);
  connection.listen();
  return connection;
}
