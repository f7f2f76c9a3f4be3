// What `tritonc deploy` decides once for every target, from the repository's facts: the models the
// server loads (each must load, as Triton would judge it), the image (the release, and the flavour
// that has every backend the models need: triton/releases/flavours.ts), the GPUs the instance groups
// need (triton/gpu-count.ts requiredGpus, what the deployment-gpus rule checks), the memory limit
// (triton/host-memory.ts, what the deployment-memory rule checks, with room on top), and the server's
// flags. The targets (docker.ts, kubernetes.ts, kserve.ts, helm.ts) only write it out.
import { basename } from 'node:path';
import type { ResolveOptions } from '../triton/effective-config.js';
import { backendRecord, isEnsemble } from '../triton/backend-records.js';
import { holdsIn } from '../triton/releases/catalog.js';
import { FLAVOURS, flavourHas, flavoursWith, type Flavour } from '../triton/releases/flavours.js';
import { targetLabel, type TritonTarget } from '../triton/releases/target.js';
import { requiredGpus } from '../triton/gpu-count.js';
import { limitAboveGiB } from '../triton/host-memory.js';
import { DEFAULT_PINNED_MEMORY_POOL_BYTES } from '../triton/command-line.js';
import { tritonServerArgs, type ServerOptions } from '../triton/server-options.js';
import { tritonImageOf } from '../verify/docker-args.js';
import { formatBytes } from '../lint/units.js';
import { shellQuote } from '../util/shell.js';
import { quoted } from '../util/terminal-text.js';
import type { Workspace } from '../workspace/workspace.js';

/** Input tritonc deploy cannot make a deployment of, as the user gave it (the CLI's exit 2). */
export class DeployError extends Error {}

/** Where the container's repository is: NVIDIA's examples and verify mount it at /models. */
export const CONTAINER_REPOSITORY = '/models';

/** tritonserver's default ports (server src/command_line_parser.h @ r26.08: http_port_ 8000, metrics_port_ 8002; gRPC's 8001 in grpc/grpc_server.h). */
export const PORTS = { http: 8000, grpc: 8001, metrics: 8002 } as const;

/** The least memory limit deploy writes: KServe's own Triton runtime's (kserve config/runtimes/kserve-tritonserver.yaml). */
export const MEMORY_FLOOR_BYTES = 2 * 2 ** 30;

export interface DeployRequest {
  /** The repository as this run reads it (a local directory, or the stand-in path of a URL). */
  repo: string;
  /** As the user named it: what comments show. */
  named: string;
  /** The URL the server reads the repository from (s3://, gs://, as://); unset: a volume at /models. */
  storageUri?: string;
  /** The name of the resources (checked: checkName). */
  name: string;
  /** The server: its target, auto-complete and --backend-config settings. */
  server: ServerOptions;
  /** The effective configs' options (the settings file's and the flags'); `gpus` is set here. */
  resolve: ResolveOptions;
  /** --gpus: GPUs per server, at least what the instance groups need. */
  gpus?: number;
  /** The models the server loads, by name (unset: every model of the repository): the GPUs and memory are theirs. */
  models?: readonly string[];
  workspace: Workspace;
}

export interface DeployPlan {
  name: string;
  named: string;
  storageUri?: string;
  target: TritonTarget;
  /** The image, nvcr.io/nvidia/tritonserver:<release>-<flavour>. */
  image: string;
  /** Why this flavour: the backends it has that the models need. */
  imageWhy: string;
  /** The models, by name, in order: each loaded at start-up. */
  models: string[];
  gpus: { count: number; why: string };
  memory: { limitBytes: number; why: string };
  /** The flags that change Triton's verdict (--disable-auto-complete-config, --backend-config=...). */
  serverFlags: string[];
}

export type PlanOutcome = { kind: 'plan'; plan: DeployPlan } | { kind: 'refused'; problems: { model: string; message: string }[] };

/** A Kubernetes object name that is also a Service's and an InferenceService's: a DNS-1035 label. */
const DNS_1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const MAX_LABEL = 63;

/**
 * Why `name` cannot name the resources, with a name that can; undefined when it can. A Service's name
 * is a DNS-1035 label (kubernetes pkg/apis/core/validation/validation.go ValidateServiceName, apimachinery
 * pkg/util/validation/validation.go IsDNS1035Label), and KServe names an InferenceService's Services
 * after it: so every target's name is one.
 */
export function nameProblem(name: string): string | undefined {
  if (name.length <= MAX_LABEL && DNS_1035_LABEL.test(name)) return undefined;
  const why =
    name.length > MAX_LABEL
      ? `is ${name.length} characters long, more than the ${MAX_LABEL} of a DNS-1035 label`
      : 'is not a DNS-1035 label (lowercase letters, digits and -, starting with a letter and ending with a letter or digit)';
  return `${quoted(name)} ${why}, which Kubernetes requires of a Service's name; use --name ${suggestName(name)}`;
}

/** A DNS-1035 label made from `text` (a repository's directory name): lowercase, other characters as -. */
export function suggestName(text: string): string {
  const label = text
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^[^a-z]+/, '')
    .slice(0, MAX_LABEL)
    .replace(/-+$/, '');
  return label || 'triton';
}

/** The deployment of a repository, or the models Triton would refuse (nothing is written then). DeployError for input deploy cannot use. */
export function planDeployment(req: DeployRequest): PlanOutcome {
  const problem = nameProblem(req.name);
  if (problem) throw new DeployError(`--name ${problem}`);
  const ws = req.workspace;
  if (ws.tree.kind(req.repo) !== 'dir') throw new DeployError(`${quoted(req.named)}: not a directory (give a model repository)`);
  const all = ws.repository(req.repo).modelDirs();
  if (!all.length) throw new DeployError(`${quoted(req.named)} holds no model directory: give the model repository (the directory the models are in)`);
  const dirs = req.models ? all.filter((d) => req.models!.includes(basename(d))) : all;
  if (!dirs.length) throw new DeployError(`${quoted(req.named)} holds none of the models ${req.models!.map(quoted).join(', ')}`);
  const models = dirs.map((d) => basename(d));

  const gpus = gpuCount(req, dirs);
  const target = req.server.target;
  const options: ResolveOptions = { ...req.resolve, target, gpus: gpus.count };
  const refused: { model: string; message: string }[] = [];
  const backends = new Map<string, string[]>();
  for (const dir of dirs) {
    const name = basename(dir);
    const result = ws.model(dir, name).effective(options);
    if (result.status !== 'ok') {
      const f = result.failure;
      const why = result.problems[0]?.message ?? (f?.kind === 'syntax' ? `${f.file} does not parse` : f ? `${f.file}: ${f.message}` : 'it cannot be read');
      refused.push({ model: name, message: why });
      continue;
    }
    const config = result.config!;
    const backend = config.backend;
    // An ensemble runs in core; a `runtime` is a backend of the user's own, which any image may be given.
    if (isEnsemble(config) || !backend || config.runtime || !holdsIn(backendRecord(backend)?.releases, target.release)) continue;
    backends.set(backend, [...(backends.get(backend) ?? []), name]);
  }
  if (refused.length) return { kind: 'refused', problems: refused };

  const flavour = chooseFlavour(target, backends);
  const image = tritonImageOf({ ...target, flavour });
  const needed = [...backends.keys()].filter((b) => flavourHas(flavour, b, target.release) !== undefined);
  const imageWhy = `Triton ${target.release.container} (server ${target.release.server}), ${flavour.title}${needed.length ? `, which has the ${needed.join(', ')} backend${needed.length === 1 ? '' : 's'} the models need` : ''}`;
  return {
    kind: 'plan',
    plan: {
      name: req.name,
      named: req.named,
      ...(req.storageUri ? { storageUri: req.storageUri } : {}),
      target: { ...target, flavour },
      image,
      imageWhy,
      models,
      gpus,
      memory: memoryLimit(req, dirs, gpus.count),
      serverFlags: tritonServerArgs(req.server),
    },
  };
}

/** The GPUs the instance groups need (or --gpus, which may give more, never fewer). */
function gpuCount(req: DeployRequest, dirs: readonly string[]): DeployPlan['gpus'] {
  let need = { count: 0, model: '', group: '' };
  for (const dir of dirs) {
    const model = req.workspace.model(dir);
    const r = requiredGpus(model.config ?? {});
    if (r.count > need.count) need = { count: r.count, model: model.name, group: r.group ?? '' };
  }
  const why = need.count
    ? `instance group ${need.group} of model ${need.model} needs ${need.count === 1 ? 'a GPU' : `GPUs 0 to ${need.count - 1}`}`
    : 'no instance group runs on a GPU (KIND_GPU, or GPUs listed)';
  if (req.gpus === undefined) return { count: need.count, why };
  if (req.gpus < need.count)
    throw new DeployError(
      `--gpus ${req.gpus}: ${why}, and Triton refuses at load a group on GPUs the server lacks (tritonc lint's deployment-gpus rule quotes it); give --gpus ${need.count} or more`,
    );
  return { count: req.gpus, why: `--gpus ${req.gpus}${need.count ? `; ${why}` : ''}` };
}

/**
 * The image for `target`: its own flavour when it names one (which must have every backend the models
 * need), else the first of NVIDIA's server images that has them all (the full py3 image first).
 */
function chooseFlavour(target: TritonTarget, backends: ReadonlyMap<string, readonly string[]>): Flavour {
  const release = target.release;
  const lacking = (f: Flavour) => [...backends.keys()].filter((b) => flavourHas(f, b, release) === false);
  const uses = (b: string) => `${b} (${backends.get(b)!.join(', ')})`;
  if (target.flavour) {
    const missing = lacking(target.flavour);
    if (missing.length)
      throw new DeployError(
        `--triton-version ${shellQuote(target.named)}: the ${targetLabel(target)} image has no ${missing.map(uses).join(', no ')} backend; ${missing
          .map(
            (b) =>
              `${b} is in ${
                flavoursWith(b, release)
                  .map((f) => `${release.container}-${f.tag}`)
                  .join(', ') || 'no image of the release'
              }`,
          )
          .join('; ')}`,
      );
    return target.flavour;
  }
  const servers = FLAVOURS.filter((f) => f.tag !== 'py3-igpu' && f.backends?.length !== 0 && holdsIn(f.releases, release));
  const fit = servers.find((f) => lacking(f).length === 0);
  if (fit) return fit;
  throw new DeployError(
    `no tritonserver image of ${release.container} has every backend the models need: ${[...backends.keys()]
      .map(
        (b) =>
          `${uses(b)} is in ${
            flavoursWith(b, release)
              .map((f) => `${release.container}-${f.tag}`)
              .join(', ') || 'none'
          }`,
      )
      .join('; ')}; serve those models from two repositories, one server each`,
  );
}

/**
 * The memory limit: what the server holds in host memory at the least (each CPU instance a copy of
 * its weights, and with GPUs the pinned pool: host-memory.ts, as the deployment-memory rule counts
 * it), a quarter more for the frameworks' arenas and the request buffers, in whole GiB, and never
 * below MEMORY_FLOOR_BYTES.
 */
function memoryLimit(req: DeployRequest, dirs: readonly string[], gpus: number): DeployPlan['memory'] {
  // Only the models the server loads hold memory (explicit model control loads no other).
  const shares = req.workspace.repository(req.repo).hostShares(gpus, dirs);
  const weights = shares.reduce((n, s) => n + s.instances * s.weightBytes, 0);
  const pinned = gpus > 0 ? DEFAULT_PINNED_MEMORY_POOL_BYTES : 0;
  const need = weights + pinned;
  const gib = limitAboveGiB(need);
  const limitBytes = Math.max(MEMORY_FLOOR_BYTES, gib * 2 ** 30);
  const parts = shares.slice(0, 3).map((s) => `${basename(s.dir)}: ${s.instances} CPU instance${s.instances === 1 ? '' : 's'} x ${formatBytes(s.weightBytes)}`);
  if (shares.length > 3) parts.push(`${shares.length - 3} more models' CPU instances`);
  if (pinned) parts.push(`the pinned memory pool: ${formatBytes(pinned)}, --pinned-memory-pool-byte-size's default`);
  const held = parts.length ? `${formatBytes(need)} held at the least (${parts.join('; ')})` : 'no CPU instance or pinned pool held';
  const why = `${held}, a quarter more for the backends' arenas and request buffers, in whole GiB, at least ${formatBytes(MEMORY_FLOOR_BYTES)} (KServe's own Triton runtime's limit)`;
  return { limitBytes, why };
}

/** A memory size as a Kubernetes quantity: whole GiB. */
export const memoryQuantity = (bytes: number): string => `${Math.ceil(bytes / 2 ** 30)}Gi`;

/** The tritonserver arguments of the server (after the program): the repository, explicit control with every model loaded at start, the flags. */
export function serverArgs(plan: DeployPlan, repository: string): string[] {
  return [
    `--model-repository=${repository}`,
    // Explicit, never poll: see docs/rules/deployment-poll.md. A model that fails to load stops the server at
    // start-up. Each --load-model is one model, its value taken whole (server src/command_line_parser.cc @ r26.08
    // line 1669, startup_models_.insert(optarg)), and it needs explicit mode (lines 1825-1830).
    '--model-control-mode=explicit',
    ...plan.models.map((m) => `--load-model=${m}`),
    ...plan.serverFlags,
  ];
}

/** Where the server reads the repository: the URL, or the volume at /models. */
export const repositoryOf = (plan: DeployPlan): string => plan.storageUri ?? CONTAINER_REPOSITORY;

/** The header every file written says first: what made it, from what, and what to check. */
export function headerLines(plan: DeployPlan, target: string): string[] {
  return [
    target === 'docker'
      ? `Written by tritonc deploy --target docker from the repository ${plan.named}`
      : `Written by tritonc deploy --target ${target} from the repository ${plan.named}: edit freely, then check it with tritonc lint --deployment ${target === 'helm' ? 'CHART --values FILE' : 'FILE'}${plan.storageUri ? '' : ' REPO'}`,
    `Image: ${plan.image}: ${plan.imageWhy}`,
    `GPUs: ${plan.gpus.count}: ${plan.gpus.why}`,
  ];
}
