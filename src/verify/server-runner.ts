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
// - The load call answers only when the load is done (mrm LoadModel) and cannot be cancelled; a load
//   sent while another is running waits for it (LoadUnloadModels blocks on the conflict), so the
//   restore after a timeout or Ctrl-C is queued behind the candidate's load.
// - A config Triton cannot use is answered 500 "failed to load '<m>', failed to poll from model
//   repository" and the reason is only logged (mrm LoadModel, PollModels); a version being served goes
//   on serving when its re-load fails (model_lifecycle.cc AsyncLoad loads it in the background).
import { performance } from 'node:perf_hooks';
import { isDeepStrictEqual } from 'node:util';
import type { ReferenceOptions } from './reference.js';
import { CannotRun, Interrupted } from './errors.js';
import { Interruption, type SignalSource } from './interruption.js';
import { KServeClient, KServeError, type RequestDescription } from './kserve-client.js';
import type { RepositoryIndex } from './kserve-schemas.js';
import type { VerifyPlan } from './plan.js';
import { cannotRunFrom, checkServedModel, describeServedChecks } from './served-model.js';
import { mapErrorText } from './triton-messages.js';
import type { VerifyReport } from './types.js';

/** The likely reason for a refusal the server does not explain: a finding of tritonc's own lint. */
export type ExplainRefusal = () => { ruleId: string; text: string } | undefined;

export interface ServerRunOptions {
  /** --reference: the outputs compared with ONNX Runtime's (reference.ts). */
  reference?: ReferenceOptions;
  url: string;
  /** How long a load may take (a TensorRT engine build can take minutes). */
  timeoutMs: number;
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

const EXPLICIT_REFUSED = /explicit model load \/ unload is not allowed/;
const FAILED_POLL = /failed to poll from model repository/;

async function reach(client: KServeClient): Promise<string> {
  try {
    const meta = await client.serverMetadata();
    return `${meta.name} ${meta.version} at ${client.baseUrl}`;
  } catch (e) {
    if (e instanceof KServeError) {
      if (e.kind === 'unreachable' || e.kind === 'timeout') {
        throw new CannotRun(`${e.message}. Start Triton, or check --server (Triton serves HTTP on port 8000 by default)`);
      }
      if (e.kind === 'forbidden') throw new CannotRun(e.message);
      if (e.kind === 'http' || e.kind === 'protocol') {
        throw new CannotRun(`${client.baseUrl} does not answer as a KServe v2 HTTP server: ${e.message}. Point --server at Triton's HTTP port (8000 by default; 8001 is gRPC, 8002 metrics)`);
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
interface Before {
  serving: boolean;
  /** GET /v2/models/<m>/config before the candidate, when the model was serving. */
  config?: unknown;
  /** The versions the index listed as READY. */
  versions: string[];
}

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
  try {
    progress(`contacting ${client.baseUrl}`);
    report.engine = await reach(client);
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
          throw new CannotRun(`the load did not finish within the timeout (${e.message}); Triton cannot cancel a load, so it goes on in the server, and verify put the model back after it; raise --timeout`);
        }
        cannotRunFrom(e, 'loading the model');
      }
      refused(e as KServeError, name, before, report, opts.explainRefusal);
      if (EXPLICIT_REFUSED.test((e as KServeError).serverMessage ?? '')) attempted = false;
    }

    if (!report.load || report.load.ok) {
      if (!candidateLoaded && !(await client.modelReady(name).catch(() => false))) {
        throw new CannotRun(`'${name}' is not loaded on ${client.baseUrl} and the server refuses explicit loads, so there is nothing to check`);
      }
      await checkServedModel({ client, plan, report, timeoutMs: opts.timeoutMs, progress, dynamicDimSize: opts.dynamicDimSize ?? 1, ...(opts.reference ? { reference: opts.reference } : {}) });
    }
    interruption.check();
  } catch (e) {
    if (!(e instanceof Interrupted)) interruption.check();
    throw e;
  } finally {
    interruption.dispose();
    // A client that Ctrl-C does not abort: the model must go back even then.
    if (attempted && before) await restore(client.with({ ...base, timeoutMs: 30_000 }), name, before, pending, report, opts.timeoutMs, progress);
  }
}

const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' ').trim();

/** The index (one entry per version: mrm GetModelIndex) and, for a serving model, the config it serves. */
async function whatTheServerHas(client: KServeClient, name: string): Promise<Before> {
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
        'The load API takes the model files from the server\'s repository: put the model directory there, or use --runtime docker',
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
  if (messages.length && messages.every((m) => m.environment)) throw new CannotRun(`the server cannot load '${name}' on this machine: ${message}`);
  report.load = { ok: false, detail: message };
  report.tritonMessages = messages;
  if (before.serving) {
    report.notes.push(`the server kept serving '${name}' (version${before.versions.length > 1 ? 's' : ''} ${before.versions.join(', ')}) with the config it had: a failed re-load does not take a serving model down`);
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

/**
 * Puts the model back as the server had it, and reads the config back to say whether it is: a serving
 * model is reloaded with the config it served (falling back to unload + load from the repository), a
 * model that was not loaded is unloaded.
 */
async function restore(client: KServeClient, name: string, before: Before, pending: boolean, report: VerifyReport, timeoutMs: number, progress: (line: string) => void): Promise<void> {
  const curl = `curl -X POST ${client.baseUrl}/v2/repository/models/${encodeURIComponent(name)}/${before.serving ? 'load' : 'unload'}`;
  const served = async (): Promise<unknown> => (await client.modelConfig(name)).raw;
  try {
    if (!before.serving) {
      progress(`unloading ${name} (it was not loaded before)`);
      await client.unloadModel(name);
      const still = await client.modelReady(name);
      report.notes.push(still ? `'${name}' was unloaded afterwards, but the server still says it is ready; unload it with: ${curl}` : `'${name}' was unloaded afterwards (it was not loaded before)`);
      return;
    }
    // A candidate load still running would land after a read-back: then always send the restore, which
    // Triton queues behind it.
    if (!pending && isDeepStrictEqual(await served().catch(() => undefined), before.config)) {
      report.notes.push(`'${name}' serves the config it served before (read back from /v2/models/${name}/config)`);
      return;
    }
    progress(`putting ${name} back with the config it served before`);
    // First the served config as the override; when that load is refused or reads back different,
    // unload (which drops what the server keeps of the model) and load from its repository.
    let overrideFailure: string | undefined;
    try {
      await client.loadModel(name, before.config as object, timeoutMs);
      if (isDeepStrictEqual(await served(), before.config)) {
        report.notes.push(`'${name}' was put back with the config it served before (loaded as the override, read back from /v2/models/${name}/config and equal to it)`);
        return;
      }
      overrideFailure = 'it reads back different';
    } catch (e) {
      // Only a refusal: a load that timed out still runs in the server, and an unload now would take the model down.
      if (!(e instanceof KServeError && e.kind === 'http')) throw e;
      overrideFailure = oneLine(e.message);
    }
    progress(`loading the served config as an override did not put ${name} back (${overrideFailure}); unloading it and loading it from the server's repository`);
    await client.unloadModel(name);
    await client.loadModel(name, undefined, timeoutMs);
    if (isDeepStrictEqual(await served(), before.config)) {
      report.notes.push(`'${name}' was unloaded and loaded again from the server's repository (loading the served config back as an override did not: ${overrideFailure}); its config reads back as before`);
      return;
    }
    report.problems.push({ kind: 'restore', message: `'${name}' could not be put back: the config it serves now differs from the one it served before verify; reload it from its repository with: curl -X POST ${client.baseUrl}/v2/repository/models/${encodeURIComponent(name)}/unload, then ${curl}` });
  } catch (e) {
    report.problems.push({ kind: 'restore', message: `could not put '${name}' back as it was (${oneLine((e as Error).message)}); ${before.serving ? 'reload' : 'unload'} it with: ${curl}` });
  }
}
