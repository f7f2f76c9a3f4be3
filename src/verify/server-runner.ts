// `verify --runtime server --server URL`: the checks against a running Triton. Where the server runs
// with explicit model control, the candidate config is loaded through the model-repository extension
// (POST /v2/repository/models/<name>/load with parameters.config), so the files in the server's
// repository are not touched; afterwards the model is put back as the server had it, on every path
// (checked, refused, timed out, Ctrl-C), and the config read back says whether it is.
//
// Triton's behaviour this relies on (core src/model_repository_manager/model_repository_manager.cc,
// "mrm"; src/model_repository_manager/model_lifecycle.cc):
// - A load with a config override stamps the config as modified now (mrm InitializeModelInfo), and a
//   model counts as modified only when its files are newer (ModelTimestamp::IsModified): a plain load
//   afterwards keeps the override (qa/L0_lifecycle). So the restore loads the config the server served
//   before as the override (the model keeps serving throughout), or, when that does not read back the
//   same, unloads (which drops the model's info: mrm LoadUnloadModels) and loads from the repository.
// - The load call answers only when the load is done (mrm LoadModel) and cannot be cancelled: the HTTP
//   handler calls TRITONSERVER_ServerLoadModelWithParameters and answers when it returns (server
//   src/http_server.cc HandleRepositoryControl), whether or not the client is still there. A load or
//   unload sent while another of the same model runs waits for it (mrm LoadModel retries while
//   LoadUnloadModels reports a conflict, which waits on the model's retry_notify_cv), so the restore
//   after a timeout or Ctrl-C during the candidate's load runs once that load is done, and is given
//   the time to wait for it.
// - A reload does not wait for the inferences in flight: the new model serves as soon as it is loaded,
//   and the old one, UNLOADING, is destroyed once its last request is done (model_lifecycle.cc
//   OnLoadFinal moves it to background_models_; ModelDeleter marks it UNAVAILABLE "unloaded"). An
//   unload answers at once in the same way (AsyncUnload -> ModelInfo::Release: UNLOADING), so a model
//   that was not loaded before can still be UNLOADING when verify ends.
// - A config Triton cannot use is answered 500 "failed to load '<m>', failed to poll from model
//   repository" and the reason is only logged (mrm LoadModel, PollModels); a version being served goes
//   on serving when its re-load fails (model_lifecycle.cc AsyncLoad loads it in the background).
import { performance } from 'node:perf_hooks';
import { isDeepStrictEqual } from 'node:util';
import type { ReferenceOptions } from './reference.js';
import { CannotRun, Interrupted } from './errors.js';
import { heldSignalLine, Interruption, type SignalSource } from './interruption.js';
import { KServeClient, KServeError, type RequestDescription } from './kserve-client.js';
import type { RepositoryIndex } from './kserve-schemas.js';
import type { VerifyPlan } from './plan.js';
import { cannotRunFrom, checkServedModel, describeServedChecks } from './served-model.js';
import { mapErrorText } from './triton-messages.js';
import { missingBackendAdvice } from './server-start.js';
import type { VerifyReport } from './types.js';

/** The likely reason for a refusal the server does not explain: a finding of tritonc's own lint. */
export type ExplainRefusal = () => { ruleId: string; text: string } | undefined;

export interface ServerRunOptions {
  /** --reference: the outputs compared with ONNX Runtime's (reference.ts). */
  reference?: ReferenceOptions;
  url: string;
  /** How long a load may take (a TensorRT engine build can take minutes). */
  timeoutMs: number;
  /** How long putting the model back may take, a wait for the candidate's load included (default: timeoutMs, at least RESTORE_MIN_MS). */
  restoreTimeoutMs?: number;
  dynamicDimSize?: number;
  progress?: (line: string) => void;
  fetch?: typeof fetch;
  /** Headers every request carries (--header), for servers with restricted APIs. */
  headers?: Record<string, string>;
  /** Ctrl-C and SIGTERM (tests replace it). */
  signals?: SignalSource;
  /** Lints the candidate with the server's flags, for a refusal the server's answer does not explain. */
  explainRefusal?: ExplainRefusal;
}

/** Triton's answer to a load on a server not in explicit model control (core src/model_repository_manager.cc). */
export const EXPLICIT_REFUSED = /explicit model load \/ unload is not allowed/;
const FAILED_POLL = /failed to poll from model repository/;

/** The server's name and version (as the engine, and the version alone), or CannotRun when it cannot be reached. */
export async function reach(client: KServeClient): Promise<{ engine: string; version: string }> {
  try {
    const meta = await client.serverMetadata();
    return { engine: `${meta.name} ${meta.version} at ${client.baseUrl}`, version: meta.version };
  } catch (e) {
    if (e instanceof KServeError) {
      if (e.kind === 'unreachable' || e.kind === 'timeout') {
        throw new CannotRun(`${e.message}. Start Triton, or check --server (Triton serves HTTP on port 8000 by default)`);
      }
      if (e.kind === 'forbidden') throw new CannotRun(e.message);
      if (e.kind === 'http' || e.kind === 'protocol') {
        throw new CannotRun(
          `${client.baseUrl} does not answer as a KServe v2 HTTP server: ${e.message}. Point --server at Triton's HTTP port (8000 by default; 8001 is gRPC, 8002 metrics)`,
        );
      }
    }
    throw e;
  }
}

export function describeServerRun(plan: VerifyPlan, opts: Pick<ServerRunOptions, 'url' | 'dynamicDimSize'>): RequestDescription[] {
  const client = new KServeClient(opts.url);
  const name = encodeURIComponent(plan.modelName);
  const load = `/v2/repository/models/${name}/load`;
  return [
    client.describe('GET', '/v2'),
    client.describe('POST', '/v2/repository/index', {}),
    client.describe('GET', `/v2/models/${name}/config`),
    client.describe('POST', load, KServeClient.loadBody(plan.configJson)),
    ...describeServedChecks(client, plan, opts.dynamicDimSize ?? 1),
    client.describe('POST', load, { parameters: { config: '<the config GET /v2/models/<name>/config answered before>' } }),
    client.describe('GET', `/v2/models/${name}/config`),
  ];
}

/** What the server had before: whether any version served, and the config it served. */
export interface Before {
  serving: boolean;
  /** GET /v2/models/<m>/config before the candidate, when the model was serving. */
  config?: unknown;
  /** The versions the index listed as READY. */
  versions: string[];
}

/** The restore takes --timeout, and at least this: the model must go back even after a short --timeout. */
export const RESTORE_MIN_MS = 30_000;

export async function runServer(plan: VerifyPlan, report: VerifyReport, opts: ServerRunOptions): Promise<void> {
  const progress = opts.progress ?? (() => {});
  const interruption = new Interruption(opts.signals ?? process);
  const base = { ...(opts.fetch ? { fetch: opts.fetch } : {}), ...(opts.headers ? { headers: opts.headers } : {}) };
  // --timeout bounds every request, the first look at the server included.
  const client = new KServeClient(opts.url, { ...base, signal: interruption.signal, ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}) });
  const name = plan.modelName;
  let attempted = false;
  /** The candidate's load was sent and not answered (a timeout, Ctrl-C): it may still be running. */
  let pending = false;
  let before: Before | undefined;
  let failed = false;
  let failure: unknown;
  try {
    progress(`contacting ${client.baseUrl}`);
    const reached = await reach(client);
    report.engine = reached.engine;
    report.serverVersion = reached.version;
    before = await whatTheServerHas(client, name);

    progress(`loading ${name} with the local config.pbtxt (through the load API; the server's repository is not changed)`);
    let candidateLoaded = false;
    const started = performance.now();
    try {
      attempted = true;
      pending = true;
      await client.loadModel(name, plan.configJson, opts.timeoutMs);
      pending = false;
      candidateLoaded = true;
      report.load = { ok: true, ms: Math.round(performance.now() - started), detail: 'loaded the local config.pbtxt through the load API' };
    } catch (e) {
      if (e instanceof KServeError && e.kind === 'http') pending = false;
      interruption.check();
      if (!(e instanceof KServeError) || e.kind !== 'http') {
        if (e instanceof KServeError && e.kind === 'timeout') {
          throw new CannotRun(
            `the load did not finish within the timeout (${e.message}); Triton cannot cancel a load, so it goes on in the server; raise --timeout`,
          );
        }
        cannotRunFrom(e, 'loading the model');
      }
      refused(e, name, before, report, opts.explainRefusal);
      if (EXPLICIT_REFUSED.test(e.serverMessage ?? '')) attempted = false;
    }

    if (!report.load || report.load.ok) {
      if (!candidateLoaded && !(await client.modelReady(name).catch(() => false))) {
        throw new CannotRun(`'${name}' is not loaded on ${client.baseUrl} and the server refuses explicit loads, so there is nothing to check`);
      }
      await checkServedModel({
        client,
        plan,
        report,
        timeoutMs: opts.timeoutMs,
        progress,
        dynamicDimSize: opts.dynamicDimSize ?? 1,
        ...(opts.reference ? { reference: opts.reference } : {}),
      });
    }
    interruption.check();
  } catch (e) {
    failed = true;
    // A request that failed because a signal aborted it: the run was interrupted.
    failure = !(e instanceof Interrupted) && interruption.caught ? new Interrupted(interruption.caught) : e;
  } finally {
    interruption.cleaningUp((signal) => progress(heldSignalLine(signal, `putting '${name}' back as the server had it`)));
  }
  // A client that Ctrl-C does not abort: the model must go back even then.
  let restored: string | undefined;
  try {
    restored =
      attempted && before
        ? await restore(
            client.with({ ...base, timeoutMs: 30_000 }),
            name,
            before,
            pending,
            report,
            opts.restoreTimeoutMs ?? Math.max(opts.timeoutMs, RESTORE_MIN_MS),
            progress,
          )
        : undefined;
  } finally {
    interruption.dispose();
  }
  if (!failed) return;
  // What stopped the run, and then how the model was put back (or that it could not be).
  if (restored && failure instanceof Interrupted) throw new Interrupted(failure.signal, restored);
  if (restored && failure instanceof CannotRun) throw new CannotRun(`${failure.message}; ${restored}`);
  throw failure;
}

const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' ').trim();

/** The index (one entry per version: mrm GetModelIndex) and, for a serving model, the config it serves. */
export async function whatTheServerHas(client: KServeClient, name: string): Promise<Before> {
  let index: RepositoryIndex | undefined;
  try {
    index = await client.repositoryIndex();
  } catch (e) {
    if (!(e instanceof KServeError && e.kind === 'http')) cannotRunFrom(e, 'reading the model repository index');
  }
  const entries = index?.filter((m) => m.name === name) ?? [];
  if (index && !entries.length) {
    const names = [...new Set(index.map((m) => m.name))];
    throw new CannotRun(
      `the server's model repository has no model '${name}'${names.length ? ` (it has: ${names.slice(0, 10).join(', ')}${names.length > 10 ? ', ...' : ''})` : ''}. ` +
        "The load API takes the model files from the server's repository: put the model directory there, or use --runtime docker",
    );
  }
  const versions = entries.filter((e) => e.state === 'READY').map((e) => e.version ?? '');
  const serving = index ? versions.length > 0 : await client.modelReady(name).catch(() => false);
  if (!serving) return { serving, versions };
  try {
    return { serving, versions, config: (await client.modelConfig(name)).raw };
  } catch (e) {
    return cannotRunFrom(e, `reading the config '${name}' is served with (to put it back afterwards)`);
  }
}

function refused(e: KServeError, name: string, before: Before, report: VerifyReport, explain: ExplainRefusal | undefined): void {
  const message = (e.serverMessage ?? e.message).trim();
  if (EXPLICIT_REFUSED.test(message)) {
    report.notes.push(
      `the server refuses explicit model loads ("${message}"): it runs with --model-control-mode=none or poll, so the local config.pbtxt was NOT loaded. ` +
        `These checks are of '${name}' as the server loaded it from its own repository; the config diff shows how that differs from config.pbtxt. ` +
        'Start Triton with --model-control-mode=explicit to verify a candidate config',
    );
    return;
  }
  const messages = mapErrorText(message);
  if (messages.length && messages.every((m) => m.environment)) {
    const missing = messages.find((m) => m.missingBackend)?.missingBackend;
    throw new CannotRun(`the server cannot load '${name}' on this machine: ${message}${missing ? `\n${missingBackendAdvice(missing, undefined)}` : ''}`);
  }
  report.load = { ok: false, detail: message };
  report.tritonMessages = messages;
  if (before.serving) {
    report.notes.push(
      `the server kept serving '${name}' (version${before.versions.length > 1 ? 's' : ''} ${before.versions.join(', ')}) with the config it had: a failed re-load does not take a serving model down`,
    );
  }
  if (FAILED_POLL.test(message)) {
    // The answer names no reason (it is in the server's log): say what tritonc's lint finds.
    const likely = explain?.();
    report.problems.push({
      kind: 'load',
      ...(likely ? { ruleId: likely.ruleId } : {}),
      message: `Triton refused config.pbtxt ("${message}"); the server's answer gives no reason (it logs it). ${likely ? `The likely reason, from linting config.pbtxt with the server's flags: ${likely.text}` : 'tritonc lint finds nothing in it: read the server\'s log for the line "Poll failed for model directory"'}`,
    });
    return;
  }
  const ruleId = messages.find((m) => m.ruleId)?.ruleId;
  report.problems.push({ kind: 'load', ...(ruleId ? { ruleId } : {}), message: `Triton refused config.pbtxt: ${message}` });
}

/** The index states of a model's versions (mrm GetModelIndex), or none when the index cannot be read. */
async function versionStates(client: KServeClient, name: string): Promise<string[]> {
  return (await client.repositoryIndex().catch(() => [])).filter((m) => m.name === name).map((m) => m.state ?? '');
}

/**
 * Puts the model back as the server had it, and reads the config back to say whether it is: a serving
 * model is reloaded with the config it served (falling back to unload + load from the repository), a
 * model that was not loaded is unloaded. Returns what happened in one sentence (also in the notes,
 * or, when it could not be put back, a restore problem with the commands that do it).
 */
export async function restore(
  client: KServeClient,
  name: string,
  before: Before,
  pending: boolean,
  report: Pick<VerifyReport, 'notes' | 'problems'>,
  timeoutMs: number,
  progress: (line: string) => void,
): Promise<string> {
  const model = `${client.baseUrl}/v2/repository/models/${encodeURIComponent(name)}`;
  // A plain load keeps an override (see above): only an unload and a load read the repository again.
  const fromRepository = `curl -X POST ${model}/unload, then curl -X POST ${model}/load`;
  const curl = before.serving ? `put it back from its repository with: ${fromRepository}` : `unload it with: curl -X POST ${model}/unload`;
  const served = async (): Promise<unknown> => (await client.modelConfig(name)).raw;
  const note = (text: string): string => {
    report.notes.push(text);
    return text;
  };
  const problem = (message: string, summary = `'${name}' could not be put back as it was (the restore error says what to run)`): string => {
    report.problems.push({ kind: 'restore', message });
    return summary;
  };
  // Sent after a candidate's load that was not answered, a load or unload waits for that load: past
  // the restore's own time, it is still queued in the server, which runs it once that load is done.
  const queued = (e: unknown, what: string): string | undefined => {
    if (!(pending && e instanceof KServeError && e.kind === 'timeout')) return undefined;
    return problem(
      `'${name}' is not back yet: ${what} was sent, and Triton runs it once the candidate's load is done, which it had not been within ${Math.round(timeoutMs / 100) / 10} s ` +
        `(Triton cannot cancel a load, and finishes one whose client has gone). See what it serves with: curl ${client.baseUrl}/v2/models/${encodeURIComponent(name)}/config; ` +
        `if it still serves config.pbtxt's config once the load is done, ${curl}`,
      `'${name}' is not back yet: Triton runs the restore verify sent once the candidate's load is done (the restore error says how to check)`,
    );
  };
  const afterCandidate = pending ? " after the candidate's load had finished" : '';
  try {
    if (!before.serving) {
      progress(`unloading ${name} (it was not loaded before)`);
      try {
        await client.unloadModel(name, timeoutMs);
      } catch (e) {
        const q = queued(e, 'the unload');
        if (q) return q;
        throw e;
      }
      if (await client.modelReady(name))
        return note(`'${name}' was unloaded afterwards, but the server still says it is ready; unload it with: curl -X POST ${model}/unload`);
      // The unload answers before the model is gone (AsyncUnload): a Python model's stub takes a moment
      // to stop, and a model still running a request verify stopped waiting for stays UNLOADING until it is done.
      const until = performance.now() + 3000;
      let states = await versionStates(client, name);
      while (states.includes('UNLOADING') && performance.now() < until) {
        await new Promise((r) => setTimeout(r, 100));
        states = await versionStates(client, name);
      }
      if (states.includes('UNLOADING')) {
        return note(
          `'${name}' is being unloaded (it was not loaded before): Triton finishes an unload once the model has answered the requests it is still running`,
        );
      }
      return note(`'${name}' was unloaded afterwards (it was not loaded before)`);
    }
    // A candidate load still running would land after a read-back: then always send the restore, which
    // Triton queues behind it.
    if (!pending && isDeepStrictEqual(await served().catch(() => undefined), before.config)) {
      return note(`'${name}' serves the config it served before (read back from /v2/models/${name}/config)`);
    }
    progress(
      pending
        ? `putting ${name} back with the config it served before (Triton runs this load once the candidate's load is done)`
        : `putting ${name} back with the config it served before`,
    );
    // First the served config as the override; when that load is refused or reads back different,
    // unload (which drops what the server keeps of the model) and load from its repository.
    let overrideFailure: string | undefined;
    try {
      await client.loadModel(name, before.config as object, timeoutMs);
      if (isDeepStrictEqual(await served(), before.config)) {
        return note(
          `'${name}' was put back with the config it served before (loaded as the override${afterCandidate}, read back from /v2/models/${name}/config and equal to it)`,
        );
      }
      overrideFailure = 'it reads back different';
    } catch (e) {
      const q = queued(e, 'the load of the config it served before (as the override)');
      if (q) return q;
      // Only a refusal: a load that timed out still runs in the server, and an unload now would take the model down.
      if (!(e instanceof KServeError && e.kind === 'http')) throw e;
      overrideFailure = oneLine(e.message);
    }
    progress(
      `loading the served config as an override did not put ${name} back (${overrideFailure}); unloading it and loading it from the server's repository`,
    );
    await client.unloadModel(name);
    await client.loadModel(name, undefined, timeoutMs);
    if (isDeepStrictEqual(await served(), before.config)) {
      return note(
        `'${name}' was unloaded and loaded again from the server's repository (loading the served config back as an override did not: ${overrideFailure}); its config reads back as before`,
      );
    }
    return problem(`'${name}' could not be put back: the config it serves now differs from the one it served before verify; ${curl}`);
  } catch (e) {
    return problem(`could not put '${name}' back as it was (${oneLine((e as Error).message)}); ${curl}`);
  }
}
