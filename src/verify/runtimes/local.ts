// A tritonserver started here on a read-only copy of the model (local-runner.ts): for users inside
// NVIDIA's container, on bare metal, and on clusters without Docker (--launcher).
import type { LocalRunOptions } from '../local-runner.js';
import type { VerifyOptions } from '../options.js';
import { DEFAULT_SERVER_OPTIONS, backendDirectoryArgs, tritonServerArgs } from '../../triton/server-options.js';
import type { VerifyRuntime } from './runtime.js';

function localOptions(options: VerifyOptions, timeoutMs: number): LocalRunOptions {
  const deps = options.deps ?? {};
  return {
    timeoutMs,
    progress: options.progress,
    dynamicDimSize: options.dynamicDimSize,
    // The user's --backend-directory, after the launcher's own (tritonserver takes the last one given).
    serverArgs: [
      ...tritonServerArgs(options.serverOptions ?? DEFAULT_SERVER_OPTIONS),
      ...backendDirectoryArgs(options.serverOptions ?? DEFAULT_SERVER_OPTIONS),
    ],
    ...(options.tritonserverBinary !== undefined ? { tritonserver: options.tritonserverBinary } : {}),
    ...(options.launcher ? { launcher: options.launcher } : {}),
    runner: deps.runner,
    ports: deps.ports,
    signals: deps.signals,
    fetch: deps.fetch,
    pollMs: deps.pollMs,
  };
}

export const LOCAL_RUNTIME: VerifyRuntime = {
  name: 'local',
  summary: 'a tritonserver started here (--tritonserver, else PATH, else /opt/tritonserver/bin; --launcher for apptainer or srun)',
  takes: ['serverOptions', 'backendDirectory', 'tritonserverBinary', 'launcher', 'reference'],
  afterInterrupt: 'tritonserver was stopped and its copy of the model removed',
  // The runner (execa, the KServe client) loads when it runs, not with the command line.
  run: async (plan, report, options, context) =>
    (await import('../local-runner.js')).runLocal(
      plan,
      report,
      { ...localOptions(options, context.timeoutMs), ...(context.reference ? { reference: context.reference } : {}) },
      context.cwd,
    ),
  dryRun: async (plan, options, context) => (await import('../local-runner.js')).describeLocalRun(plan, localOptions(options, context.timeoutMs), context.cwd),
};
