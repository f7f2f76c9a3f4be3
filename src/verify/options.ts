// What `tritonc verify` is asked to do, as a library call takes it (verify.ts) and each runtime reads it (runtimes/).
import type { Engine } from './docker-args.js';
import type { SignalSource } from './docker-runner.js';
import type { OrtLoader } from './ort-loader.js';
import type { PortFinder } from './ports.js';
import type { ProcessRunner } from './process-runner.js';
import type { Runtime } from './types.js';
import type { TritonTarget } from '../triton/releases/target.js';
import type { ServerOptions } from '../triton/server-options.js';
import type { InputFiles } from './user-inputs/load.js';

export interface VerifyOptions {
  /** The model directory (<repository>/<model>). */
  modelDir: string;
  cwd?: string;
  runtime?: Runtime;
  /** docker: the container engine, docker (default) or podman (--engine). */
  engine?: Engine;
  /** docker: the Triton image (default: the target's, tritonImageOf; told nothing, DEFAULT_TRITON_IMAGE). */
  image?: string;
  /** server: the base URL of Triton's HTTP endpoint. */
  server?: string;
  /** docker: 'all', 'none' or a device list '0,1'. */
  gpus?: string;
  /**
   * The server's options from tritonserver's own flags (--disable-auto-complete-config,
   * --backend-config, --backend-directory): docker and local start the server with them; for a running
   * server they say how it was started (the local lint that explains a refusal uses them).
   */
  serverOptions?: ServerOptions;
  /**
   * The Triton tritonc judges for (--triton-version); unset: told nothing (its newest release). A
   * server answering another version is a warning in the report.
   */
  target?: TritonTarget;
  /** local: the path of the tritonserver binary (--tritonserver; default: PATH, then /opt/tritonserver/bin). */
  tritonserverBinary?: string;
  /** local: the words that run tritonserver (--launcher 'apptainer exec --nv triton.sif'). */
  launcher?: string[];
  /**
   * docker/local/server: compare the outputs with ONNX Runtime's on the same inputs (--reference ort):
   * the user's (--input NAME=FILE, --inputs FILE), seeded ones for the inputs they do not give.
   */
  reference?: { modelFile?: string; atol?: number; rtol?: number; inputs?: InputFiles };
  /** server: headers every request carries (--header), for servers with restricted APIs. */
  headers?: Record<string, string>;
  /** How long to wait for the model to load (docker/server); default 120 s. */
  timeoutMs?: number;
  /** Item shapes for inputs with variable dims (--shape NAME:D1,D2), over the config's model_warmup. */
  shapes?: { name: string; dims: number[] }[];
  /** The size sent for a -1 dim other than the batch dim (default 1). */
  dynamicDimSize?: number;
  progress?: (line: string) => void;
  /** Replaceable parts, for tests and embedding. */
  deps?: {
    ortLoader?: OrtLoader;
    runner?: ProcessRunner;
    fetch?: typeof fetch;
    ports?: PortFinder;
    signals?: SignalSource;
    nameSuffix?: string;
    pollMs?: number;
  };
}
