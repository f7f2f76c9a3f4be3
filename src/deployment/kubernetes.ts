// Kubernetes workloads: the pod templates of Pods, Deployments, StatefulSets, DaemonSets, ReplicaSets,
// Jobs and CronJobs (and Lists of them), and in them the containers that run tritonserver (native
// sidecars among the init containers included), read into
// DeployedServer facts: the command line (command + args; a `sh -c` script split as the shell would;
// `$(NAME)` expanded from the container's env as the kubelet does), the image, nvidia.com/gpu and
// memory limits, the literal environment.
import type { ManifestDocument, ValuePath } from './manifest-text.js';
import type { DeployedServer, Located } from './server.js';
import { shellCommands } from './shell-words.js';
import { parseTritonCommandLine } from '../triton/command-line.js';
import { parseQuantity } from './quantity.js';

/** Where each workload kind keeps its pod spec. */
const POD_SPEC: Readonly<Record<string, ValuePath>> = {
  Pod: ['spec'],
  Deployment: ['spec', 'template', 'spec'],
  StatefulSet: ['spec', 'template', 'spec'],
  DaemonSet: ['spec', 'template', 'spec'],
  ReplicaSet: ['spec', 'template', 'spec'],
  Job: ['spec', 'template', 'spec'],
  CronJob: ['spec', 'jobTemplate', 'spec', 'template', 'spec'],
};

/** The NVIDIA device plugin's resource name. */
export const GPU_RESOURCE = 'nvidia.com/gpu';

const SHELLS = new Set(['sh', 'bash', 'dash', 'ash', 'zsh']);
const TRITONSERVER = 'tritonserver';

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
export const valueAt = (v: unknown, path: ValuePath): unknown =>
  path.reduce<unknown>((o, k) => (isRecord(o) || Array.isArray(o) ? (o as never)[k] : undefined), v);
const basename = (word: string) => word.slice(word.lastIndexOf('/') + 1);

/** The tritonservers a Kubernetes document's pods run (a List's items included). */
export function kubernetesServers(doc: ManifestDocument): DeployedServer[] {
  const value = doc.value;
  if (!isRecord(value)) return [];
  if (value.kind === 'List' && Array.isArray(value.items)) return value.items.flatMap((_, i) => serversOfWorkload(doc, ['items', i]));
  return serversOfWorkload(doc, []);
}

function serversOfWorkload(doc: ManifestDocument, base: ValuePath): DeployedServer[] {
  const workload = valueAt(doc.value, base);
  if (!isRecord(workload) || typeof workload.kind !== 'string' || !Object.hasOwn(POD_SPEC, workload.kind)) return [];
  const kind = workload.kind;
  const name = typeof valueAt(workload, ['metadata', 'name']) === 'string' ? (valueAt(workload, ['metadata', 'name']) as string) : '(unnamed)';
  const specPath = [...base, ...POD_SPEC[kind]!];
  const out: DeployedServer[] = [];
  // A native sidecar (an init container with restartPolicy Always, KEP-753: Kubernetes 1.29 on by
  // default, GA 1.33) runs for the pod's life, as tune plan --kubernetes-jobs starts tritonserver; any
  // other init container runs to completion before the server would, so it serves nothing.
  const init = valueAt(doc.value, [...specPath, 'initContainers']);
  if (Array.isArray(init))
    init.forEach((c, i) => {
      if (!isRecord(c) || c.restartPolicy !== 'Always') return;
      const server = containerServer(doc, [...specPath, 'initContainers', i], `${kind} ${name}`, 'kubernetes');
      if (server) out.push(server);
    });
  const containers = valueAt(doc.value, [...specPath, 'containers']);
  if (Array.isArray(containers))
    containers.forEach((_, i) => {
      const server = containerServer(doc, [...specPath, 'containers', i], `${kind} ${name}`, 'kubernetes');
      if (server) out.push(server);
    });
  return out;
}

/** A container's tritonserver, when it runs one; `owner` names the resource for messages. */
export function containerServer(
  doc: ManifestDocument,
  path: ValuePath,
  owner: string,
  platform: DeployedServer['platform'],
  options: { assumeServer?: boolean } = {},
): DeployedServer | undefined {
  const container = valueAt(doc.value, path);
  if (!isRecord(container)) return undefined;
  const env = literalEnv(doc, path);
  const words = tritonWords(doc, path, env, options.assumeServer === true);
  if (!words) return undefined;
  const image = typeof container.image === 'string' ? { value: container.image, at: doc.locate([...path, 'image']) } : undefined;
  const containerName = typeof container.name === 'string' ? container.name : `#${String(path.at(-1))}`;
  const gpus = gpuCount(doc, path);
  const memory = memoryLimit(doc, path);
  return {
    platform,
    name: `${owner}, container ${containerName}`,
    at: doc.locate(path),
    ...(image ? { image } : {}),
    words,
    commandLine: parseTritonCommandLine(words.map((w) => w.value)),
    gpus: gpus ?? { count: 0, at: doc.locate([...path, 'resources']) },
    ...(memory ? { memoryLimit: memory } : {}),
    env,
  };
}

/** The container's env entries written as values (valueFrom is not known here). */
function literalEnv(doc: ManifestDocument, path: ValuePath): Map<string, Located<string>> {
  const env = new Map<string, Located<string>>();
  const list = valueAt(doc.value, [...path, 'env']);
  if (!Array.isArray(list)) return env;
  list.forEach((e, i) => {
    if (isRecord(e) && typeof e.name === 'string' && (typeof e.value === 'string' || typeof e.value === 'number'))
      env.set(e.name, { value: String(e.value), at: doc.locate([...path, 'env', i, 'value']) });
  });
  return env;
}

/** The kubelet's $(NAME) expansion of command and args ($$ escapes; an unknown name stays). */
function expandKubernetes(word: string, env: ReadonlyMap<string, Located<string>>): string {
  return word.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g, (m, name: string | undefined) => (name === undefined ? '$' : (env.get(name)?.value ?? m)));
}

/**
 * The words tritonserver gets, each located: after a `tritonserver` word in command + args, or in a
 * shell script among them (every word of a script located at the script). Undefined when the
 * container runs no tritonserver (and `assumeServer` is false: KServe's runtime may give only flags).
 */
function tritonWords(doc: ManifestDocument, path: ValuePath, env: ReadonlyMap<string, Located<string>>, assumeServer: boolean): Located<string>[] | undefined {
  const argv: Located<string>[] = [];
  for (const key of ['command', 'args'] as const) {
    const list = valueAt(doc.value, [...path, key]);
    if (!Array.isArray(list)) continue;
    list.forEach((w, i) => {
      if (typeof w === 'string' || typeof w === 'number') argv.push({ value: expandKubernetes(String(w), env), at: doc.locate([...path, key, i]) });
    });
  }
  const direct = argv.findIndex((w) => basename(w.value) === TRITONSERVER);
  if (direct >= 0) return argv.slice(direct + 1);
  // A shell: the script is the word after -c (sh -c SCRIPT, or -c as the last command word and SCRIPT in args).
  const shell = argv.findIndex((w) => SHELLS.has(basename(w.value)));
  if (shell >= 0) {
    const dashC = argv.findIndex((w, i) => i > shell && /^-[a-z]*c[a-z]*$/.test(w.value));
    const script = dashC >= 0 ? argv[dashC + 1] : undefined;
    if (script) {
      const lookup = (name: string) => env.get(name)?.value;
      for (const command of shellCommands(script.value, lookup)) {
        const t = command.findIndex((w) => basename(w) === TRITONSERVER);
        if (t >= 0) return command.slice(t + 1).map((value) => ({ value, at: script.at }));
      }
    }
  }
  return assumeServer ? argv : undefined;
}

/** nvidia.com/gpu from the limits (which the device plugin requires), else the requests. */
function gpuCount(doc: ManifestDocument, path: ValuePath): { count: number; at: DeployedServer['at'] } | undefined {
  for (const kind of ['limits', 'requests']) {
    const p = [...path, 'resources', kind, GPU_RESOURCE];
    const v = valueAt(doc.value, p);
    if (v === undefined) continue;
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : undefined;
    if (n !== undefined) return { count: n, at: doc.locate(p) };
  }
  return undefined;
}

function memoryLimit(doc: ManifestDocument, path: ValuePath): Located<number> | undefined {
  const p = [...path, 'resources', 'limits', 'memory'];
  const bytes = parseQuantity(valueAt(doc.value, p));
  return bytes === undefined ? undefined : { value: bytes, at: doc.locate(p) };
}
