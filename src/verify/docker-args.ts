// The `docker run` (or `podman run`) argument array for a throwaway Triton: removed on exit (--rm), a
// unique name and a label (so a leftover one is easy to find), the model repository mounted read-only,
// GPUs as asked (each engine's own way),
// HTTP/gRPC/metrics published on free loopback ports only, and tritonserver in explicit model-control
// mode loading just the model under test.
//
// Auto-complete stays on (Triton's default) unless the user serves with --disable-auto-complete-config:
// the tritonserver flags given to verify (server-options.ts tritonServerArgs) are passed on as they are,
// so the model is checked as the production server will load it.
import { shellLine } from '../util/shell.js';
import { DEFAULT_TARGET, type TritonTarget } from '../triton/releases/target.js';
import { append } from '../util/arrays.js';

/**
 * The image of the Triton the user runs (--triton-version: its release and flavour, the full py3 image
 * when no flavour was named), which verify starts unless --image picks another.
 */
export const tritonImageOf = (target: TritonTarget): string => `nvcr.io/nvidia/tritonserver:${target.release.container}-${target.flavour?.tag ?? 'py3'}`;
/** Told nothing: the newest release tritonc knows. */
export const DEFAULT_TRITON_IMAGE = tritonImageOf(DEFAULT_TARGET);
export const CONTAINER_LABEL = 'dev.tritonc.verify';
export const CONTAINER_REPOSITORY = '/models';

/**
 * The container engines verify drives. podman takes docker's `run`, `rm -f`, `image inspect`, `pull`
 * and `version --format '{{.Server.Version}}'` as they are (podman 4.3, checked in CI); only GPUs differ.
 */
export const ENGINES = ['docker', 'podman'] as const;
export type Engine = (typeof ENGINES)[number];
export const engineName = (engine: Engine): string => (engine === 'docker' ? 'Docker' : 'Podman');

export interface DockerRunSpec {
  /** The engine whose `run` this is (default docker). */
  engine?: Engine;
  image: string;
  name: string;
  repoDir: string;
  modelName: string;
  ports: { http: number; grpc: number; metrics: number };
  /** 'all', a device list such as '0,1', or undefined for no GPUs (CPU-only configs). */
  gpus: string | undefined;
  /** tritonserver flags that change its verdict (--disable-auto-complete-config, --backend-config=...). */
  serverArgs?: readonly string[];
}

/** A valid --gpus value: all, none, or comma-separated device ids / UUIDs. */
export function parseGpus(text: string): string | undefined {
  const t = text.trim();
  if (t === 'all' || t === 'none') return t;
  return /^[A-Za-z0-9-]+(,[A-Za-z0-9-]+)*$/.test(t) ? t : undefined;
}

/**
 * docker reads --gpus as CSV, so a device list needs literal double quotes ("device=0,1"); the value
 * goes to docker as one argument, no shell involved.
 */
export function gpusArgument(gpus: string): string {
  return gpus === 'all' ? 'all' : `"device=${gpus}"`;
}

/**
 * The GPU flags of each engine. docker: --gpus (the NVIDIA Container Toolkit's hook). podman has no
 * working --gpus (4.3 takes it and ignores it); it gives GPUs as CDI devices, nvidia.com/gpu=all or
 * one per index or UUID, the names `nvidia-ctk cdi generate` writes (NVIDIA Container Toolkit, "Support
 * for Container Device Interface"). 'none' is no flag at all: the container sees no GPU.
 */
export function gpuArgs(engine: Engine, gpus: string | undefined): string[] {
  if (!gpus || gpus === 'none') return [];
  if (engine === 'docker') return ['--gpus', gpusArgument(gpus)];
  return gpus.split(',').flatMap((id) => ['--device', `nvidia.com/gpu=${id}`]);
}

/**
 * The removal that always ends a run. docker's `rm -f` kills the container at once; podman's stops it
 * first and kills it only after its stop timeout (10 s by default), so podman is given --time 0 (podman
 * 4.3's rm takes it) to remove the container as docker does.
 */
export function removeArgs(engine: Engine, name: string): string[] {
  return engine === 'docker' ? ['rm', '-f', name] : ['rm', '-f', '--time', '0', name];
}

/** Docker names allow [a-zA-Z0-9][a-zA-Z0-9_.-]*. */
export function containerName(modelName: string, suffix: string): string {
  const safe = modelName.replace(/[^a-zA-Z0-9_.-]/g, '-').replace(/^[^a-zA-Z0-9]+/, '') || 'model';
  return `tritonc-verify-${safe.slice(0, 40)}-${suffix}`;
}

/**
 * --mount takes CSV too, in docker and podman alike (one record of Go's encoding/csv): quote a field
 * holding a comma, a quote or a line break, which would otherwise end the field or the record.
 */
export const csvField = (field: string): string => (/[",\r\n]/.test(field) ? `"${field.replace(/"/g, '""')}"` : field);

export function dockerRunArgs(spec: DockerRunSpec): string[] {
  const args = ['run', '--rm', '--name', spec.name, '--label', `${CONTAINER_LABEL}=${spec.modelName}`];
  append(args, gpuArgs(spec.engine ?? 'docker', spec.gpus));
  append(args, [
    '--mount',
    ['type=bind', csvField(`source=${spec.repoDir}`), `target=${CONTAINER_REPOSITORY}`, 'readonly'].join(','),
    '-p',
    `127.0.0.1:${spec.ports.http}:8000`,
    '-p',
    `127.0.0.1:${spec.ports.grpc}:8001`,
    '-p',
    `127.0.0.1:${spec.ports.metrics}:8002`,
    spec.image,
    'tritonserver',
    `--model-repository=${CONTAINER_REPOSITORY}`,
    '--model-control-mode=explicit',
    `--load-model=${spec.modelName}`,
    ...(spec.serverArgs ?? []),
  ]);
  return args;
}

/** The command as a person would type it (for --dry-run and messages only; never executed). */
export function displayCommand(command: string, args: readonly string[]): string {
  return shellLine([command, ...args]);
}
