// What a verify runtime is: a way to load the model for real and check it answers as its config says.
// Each one is a record here (./ort.ts, ./docker.ts, ./server.ts), listed in ./index.ts; verify, its
// dry run and the command line dispatch through the record and nothing else. Adding a runtime is a
// file here and a line in the index.
import type { RequestDescription } from '../kserve-client.js';
import type { VerifyPlan } from '../plan.js';
import type { VerifyReport } from '../types.js';
import type { VerifyOptions } from '../options.js';
import type { ReferenceOptions } from '../reference.js';

/** The options only some runtimes read; giving one to another runtime is a usage error. */
export type RuntimeOption =
  'engine' | 'image' | 'gpus' | 'server' | 'headers' | 'serverOptions' | 'backendDirectory' | 'tritonserverBinary' | 'launcher' | 'reference';

/** What --dry-run prints of a runtime: the commands and requests it would run. */
export interface RuntimeDryRun {
  /** ort: the session verify would open and the inputs it would feed. */
  ort?: {
    modelFile: string | undefined;
    sessionOptions: object;
    runs: { batchSize: number | null; inputs: { name: string; dataType: string; shape: number[] }[] }[];
  };
  /** docker: the `docker run` argument array (argv[0] = docker). */
  command?: string[];
  requests: RequestDescription[];
  /** docker: the removal that always runs at the end. */
  cleanup?: string[];
}

export interface RuntimeContext {
  cwd: string;
  timeoutMs: number;
  /** --reference, resolved: the ONNX model and the tolerances. */
  reference?: ReferenceOptions;
  /**
   * The first error tritonc's lint finds in the config under the server's flags: what a server that
   * answers only "failed to poll from model repository" most likely logged.
   */
  explainRefusal: () => { ruleId: string; text: string } | undefined;
}

export interface VerifyRuntime {
  /** As --runtime takes it. */
  readonly name: string;
  /** One line for --help. */
  readonly summary: string;
  /** The runtime-specific options it reads. */
  readonly takes: readonly RuntimeOption[];
  /** What an interruption leaves behind, for the report ("the container was removed"), unless the runner says more (Interrupted.after). */
  readonly afterInterrupt: string;
  /** Loads the model, sends the requests, and adds what it finds to `report`. Throws CannotRun / Interrupted. */
  run(plan: VerifyPlan, report: VerifyReport, options: VerifyOptions, context: RuntimeContext): Promise<void>;
  /** What it would run, running nothing. Throws CannotRun. */
  dryRun(plan: VerifyPlan, options: VerifyOptions, context: Omit<RuntimeContext, 'explainRefusal'>): Promise<RuntimeDryRun>;
}
