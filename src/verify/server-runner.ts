// `verify --runtime server --server URL`: the checks against a running Triton. Where the server runs
// with explicit model control, the candidate config is loaded through the model-repository extension
// (POST /v2/repository/models/<name>/load with parameters.config), so the files in the server's
// repository are not touched; afterwards the model is put back as the server had it (reloaded from its
// own repository, or unloaded if it was not loaded). A server that refuses explicit loads is checked
// as loaded, and verify says plainly that the local config.pbtxt was not the one tested.
import { performance } from 'node:perf_hooks';
import { CannotRun } from './errors.js';
import { KServeClient, KServeError, type RequestDescription } from './kserve-client.js';
import type { RepositoryIndex } from './kserve-schemas.js';
import type { VerifyPlan } from './plan.js';
import { cannotRunFrom, checkServedModel, describeServedChecks } from './served-model.js';
import { mapErrorText } from './triton-messages.js';
import type { VerifyReport } from './types.js';

export interface ServerRunOptions {
  url: string;
  /** How long a load may take (a TensorRT engine build can take minutes). */
  timeoutMs: number;
  dynamicDimSize?: number;
  progress?: (line: string) => void;
  fetch?: typeof fetch;
  signal?: AbortSignal;
}

const EXPLICIT_REFUSED = /explicit model load \/ unload is not allowed/;

async function reach(client: KServeClient): Promise<string> {
  try {
    const meta = await client.serverMetadata();
    return `${meta.name} ${meta.version} at ${client.baseUrl}`;
  } catch (e) {
    if (e instanceof KServeError) {
      if (e.kind === 'unreachable' || e.kind === 'timeout') {
        throw new CannotRun(`${e.message}. Start Triton, or check --server (Triton serves HTTP on port 8000 by default)`);
      }
      if (e.kind === 'http' || e.kind === 'protocol') {
        throw new CannotRun(`${client.baseUrl} does not answer as a KServe v2 HTTP server: ${e.message}. Point --server at Triton's HTTP port (8000 by default; 8001 is gRPC, 8002 metrics)`);
      }
    }
    throw e;
  }
}

export function describeServerRun(plan: VerifyPlan, opts: Pick<ServerRunOptions, 'url' | 'dynamicDimSize'>): RequestDescription[] {
  const client = new KServeClient(opts.url);
  const load = `/v2/repository/models/${encodeURIComponent(plan.modelName)}/load`;
  return [
    client.describe('GET', '/v2'),
    client.describe('POST', '/v2/repository/index', {}),
    client.describe('POST', load, KServeClient.loadBody(plan.configJson)),
    ...describeServedChecks(client, plan, opts.dynamicDimSize ?? 1),
    client.describe('POST', load, KServeClient.loadBody()),
  ];
}

export async function runServer(plan: VerifyPlan, report: VerifyReport, opts: ServerRunOptions): Promise<void> {
  const progress = opts.progress ?? (() => {});
  const client = new KServeClient(opts.url, { ...(opts.fetch ? { fetch: opts.fetch } : {}), ...(opts.signal ? { signal: opts.signal } : {}) });
  const name = plan.modelName;
  progress(`contacting ${client.baseUrl}`);
  report.engine = await reach(client);

  // Which models the server's repository holds, and whether ours is loaded now (to put it back after).
  let index: RepositoryIndex | undefined;
  try {
    index = await client.repositoryIndex();
  } catch (e) {
    if (!(e instanceof KServeError && e.kind === 'http')) cannotRunFrom(e, 'reading the model repository index');
  }
  const entry = index?.find((m) => m.name === name);
  if (index && !entry) {
    const names = index.map((m) => m.name);
    throw new CannotRun(
      `the server's model repository has no model '${name}'${names.length ? ` (it has: ${names.slice(0, 10).join(', ')}${names.length > 10 ? ', ...' : ''})` : ''}. ` +
        'The load API takes the model files from the server\'s repository: put the model directory there, or use --runtime docker',
    );
  }
  const wasReady = entry ? entry.state === 'READY' : await client.modelReady(name).catch(() => false);

  progress(`loading ${name} with the local config.pbtxt (through the load API; the server's repository is not changed)`);
  let candidateLoaded = false;
  let attempted = false;
  const started = performance.now();
  try {
    attempted = true;
    await client.loadModel(name, plan.configJson, opts.timeoutMs);
    candidateLoaded = true;
    report.load = { ok: true, ms: Math.round(performance.now() - started), detail: 'loaded the local config.pbtxt through the load API' };
  } catch (e) {
    if (!(e instanceof KServeError) || e.kind !== 'http') {
      if (e instanceof KServeError && e.kind === 'timeout') throw new CannotRun(`the load did not finish within the timeout (${e.message}); raise --timeout`);
      cannotRunFrom(e, 'loading the model');
    }
    const message = ((e as KServeError).serverMessage ?? (e as Error).message).trim();
    if (EXPLICIT_REFUSED.test(message)) {
      attempted = false;
      report.notes.push(
        `the server refuses explicit model loads ("${message}"): it runs with --model-control-mode=none or poll, so the local config.pbtxt was NOT loaded. ` +
          `These checks are of '${name}' as the server loaded it from its own repository; the config diff shows how that differs from config.pbtxt. ` +
          'Start Triton with --model-control-mode=explicit to verify a candidate config',
      );
    } else {
      const messages = mapErrorText(message);
      if (messages.length && messages.every((m) => m.environment)) throw new CannotRun(`the server cannot load '${name}' on this machine: ${message}`);
      report.load = { ok: false, detail: message };
      report.tritonMessages = messages;
      const ruleId = messages.find((m) => m.ruleId)?.ruleId;
      report.problems.push({ kind: 'load', ...(ruleId ? { ruleId } : {}), message: `Triton refused config.pbtxt: ${message}` });
    }
  }

  try {
    if (!report.load || report.load.ok) {
      if (!candidateLoaded && !(await client.modelReady(name).catch(() => false))) {
        throw new CannotRun(`'${name}' is not loaded on ${client.baseUrl}${entry?.reason ? ` (${entry.state}: ${entry.reason})` : ''} and the server refuses explicit loads, so there is nothing to check`);
      }
      await checkServedModel({ client, plan, report, timeoutMs: opts.timeoutMs, progress, dynamicDimSize: opts.dynamicDimSize ?? 1 });
    }
  } finally {
    if (attempted) await restore(client, name, wasReady, report, opts.timeoutMs);
  }
}

/** Puts the model back as the server had it: reloaded from its repository, or unloaded. */
async function restore(client: KServeClient, name: string, wasReady: boolean, report: VerifyReport, timeoutMs: number): Promise<void> {
  try {
    if (wasReady) {
      await client.loadModel(name, undefined, timeoutMs);
      report.notes.push(`'${name}' was reloaded from the server's own repository afterwards`);
    } else {
      await client.unloadModel(name);
      report.notes.push(`'${name}' was unloaded afterwards (it was not loaded before)`);
    }
  } catch (e) {
    report.notes.push(`could not put '${name}' back as it was (${(e as Error).message}); reload it with: curl -X POST ${client.baseUrl}/v2/repository/models/${encodeURIComponent(name)}/load`);
  }
}
