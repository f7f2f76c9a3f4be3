// A Triton container started for the check (docker run, the repository mounted read-only), always
// removed at the end.
import { DEFAULT_TRITON_IMAGE, tritonImageOf } from '../docker-args.js';
import type { DockerRunOptions } from '../docker-runner.js';
import type { VerifyPlan } from '../plan.js';
import type { VerifyOptions } from '../options.js';
import { DEFAULT_SERVER_OPTIONS, tritonServerArgs } from '../../triton/server-options.js';
import type { VerifyRuntime } from './runtime.js';

function dockerOptions(options: VerifyOptions, timeoutMs: number): DockerRunOptions {
  const deps = options.deps ?? {};
  return {
    progress: options.progress,
    dynamicDimSize: options.dynamicDimSize,
    engine: options.engine,
    image: options.image ?? (options.target ? tritonImageOf(options.target) : DEFAULT_TRITON_IMAGE),
    gpus: options.gpus,
    timeoutMs,
    serverArgs: tritonServerArgs(options.serverOptions ?? DEFAULT_SERVER_OPTIONS),
    runner: deps.runner,
    ports: deps.ports,
    signals: deps.signals,
    nameSuffix: deps.nameSuffix,
    fetch: deps.fetch,
    pollMs: deps.pollMs,
  };
}

export const DOCKER_RUNTIME: VerifyRuntime = {
  name: 'docker',
  summary: 'a Triton container',
  takes: ['engine', 'image', 'gpus', 'serverOptions', 'reference'],
  afterInterrupt: 'the container was removed',
  // The runner (execa, the KServe client) loads when it runs, not with the command line.
  run: async (plan: VerifyPlan, report, options, context) =>
    (await import('../docker-runner.js')).runDocker(plan, report, {
      ...dockerOptions(options, context.timeoutMs),
      ...(context.reference ? { reference: context.reference } : {}),
    }),
  dryRun: async (plan, options, context) => {
    const d = await (await import('../docker-runner.js')).describeDockerRun(plan, dockerOptions(options, context.timeoutMs));
    return { command: d.command, requests: d.requests, cleanup: d.cleanup };
  },
};
