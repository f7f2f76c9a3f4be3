// A Triton already running (--server URL): the candidate config loaded through the repository API,
// checked, and the server put back on its own config afterwards.
import { CannotRun } from '../errors.js';
import type { VerifyOptions } from '../options.js';
import type { VerifyRuntime } from './runtime.js';

const urlOf = (options: VerifyOptions): string => {
  if (!options.server) throw new CannotRun("--runtime server needs --server URL (Triton's HTTP endpoint, e.g. http://localhost:8000)");
  return options.server;
};

export const SERVER_RUNTIME: VerifyRuntime = {
  name: 'server',
  summary: 'a running Triton (--server)',
  takes: ['server', 'headers', 'serverOptions', 'reference'],
  // Said when nothing was loaded yet; once something was, the runner says how it put the model back.
  afterInterrupt: 'nothing was loaded on the server',
  // The runner (the KServe client) loads when it runs, not with the command line.
  run: async (plan, report, options, context) =>
    (await import('../server-runner.js')).runServer(plan, report, {
      progress: options.progress,
      dynamicDimSize: options.dynamicDimSize,
      url: urlOf(options),
      timeoutMs: context.timeoutMs,
      fetch: options.deps?.fetch,
      signals: options.deps?.signals,
      ...(options.headers ? { headers: options.headers } : {}),
      explainRefusal: context.explainRefusal,
      ...(context.reference ? { reference: context.reference } : {}),
    }),
  dryRun: async (plan, options) => ({
    requests: (await import('../server-runner.js')).describeServerRun(plan, { url: urlOf(options), dynamicDimSize: options.dynamicDimSize ?? 1 }),
  }),
};
