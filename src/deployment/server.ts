// A tritonserver as a deployment declares it: what every deployment reader (Kubernetes workloads,
// KServe, SageMaker) yields, and what lint and the deployment rules read. Each value keeps where it
// is written, so a finding points at the manifest's line.
import type { Location } from './manifest-text.js';
import type { TritonCommandLine } from '../triton/command-line.js';

export type { Location };

export interface Located<T> {
  readonly value: T;
  readonly at: Location;
}

export type DeploymentPlatform = 'kubernetes' | 'kserve' | 'sagemaker';

/** One tritonserver a deployment starts. */
export interface DeployedServer {
  readonly platform: DeploymentPlatform;
  /** How messages name it: "Deployment triton, container server". */
  readonly name: string;
  /** The resource (or container) as a whole: where a finding about something it lacks points. */
  readonly at: Location;
  readonly image?: Located<string>;
  /** The tritonserver command line, its words with where each is written. */
  readonly words: readonly Located<string>[];
  readonly commandLine: TritonCommandLine;
  /**
   * GPUs the container gets (the nvidia.com/gpu limit, else its request), with where that is written;
   * `count: 0, at: the container` when it asks for none. Undefined where the platform says it elsewhere
   * (SageMaker: the instance type of the endpoint configuration).
   */
  readonly gpus?: { readonly count: number; readonly at: Location };
  /** The memory limit in bytes, where one is set. */
  readonly memoryLimit?: Located<number>;
  /** The container's environment values written as literals. */
  readonly env: ReadonlyMap<string, Located<string>>;
  /**
   * Where the platform puts the repository the server reads (KServe: storageUri copied to
   * /mnt/models; SageMaker: ModelDataUrl unpacked to /opt/ml/model).
   */
  readonly storage?: { readonly uri: Located<string>; readonly mountPath: string };
}

/** A repository a deployed server serves, as this run reads it and as the deployment names it. */
export interface ServedRepository {
  /** The path this run reads (a local directory, or the stand-in path of a mounted URL). */
  readonly path: string;
  /** As the deployment names it: the server's --model-repository value, or the storage URI behind it. */
  readonly named: string;
  /** Where the deployment names it. */
  readonly at: Location;
}

/** A deployment's tritonserver and what it serves: what deployment rules read. */
export interface DeploymentFacts {
  readonly server: DeployedServer;
  readonly repositories: readonly ServedRepository[];
  /** The other servers the deployments given start, with what each serves (an ensemble split between them). */
  readonly others: readonly { readonly server: DeployedServer; readonly repositories: readonly ServedRepository[] }[];
}
