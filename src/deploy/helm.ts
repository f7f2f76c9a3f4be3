// `tritonc deploy --target helm`: values for NVIDIA's chart deploy/k8s-onprem (triton-inference-server/
// server @ 4b54459107911180d3c3b24cea1c5bc832563c0a, values.yaml and templates/deployment.yaml), read
// for its keys: image.imageName (the container's image), image.numGpus (its nvidia.com/gpu limit),
// image.modelRepositoryServer and image.modelRepositoryPath (the NFS export mounted at /models),
// serverArgs (tritonserver's args, each written into the rendered manifest as it is: `- {{ . }}`,
// deployment.yaml lines 74-76), fullnameOverride (the resources' name, templates/_helpers.tpl). The
// chart sets no memory limit; the header says what the server needs.
import { parse } from 'yaml';
import { CONTAINER_REPOSITORY, headerLines, memoryQuantity, repositoryOf, serverArgs, type DeployPlan } from './plan.js';
import { kubeletWord, yamlDocument } from './yaml-text.js';

export const CHART = {
  source: 'triton-inference-server/server deploy/k8s-onprem @ 4b54459107911180d3c3b24cea1c5bc832563c0a',
  /** The chart's own default for the NFS server, a placeholder to replace. */
  nfsServerPlaceholder: '< Replace with the IP Address of your file server >',
} as const;

/**
 * A serverArgs entry the chart writes into its manifest unquoted: where that text would not read back
 * as the same string (a ': ', a '#', a line break, a leading quote...), the entry is the string in
 * YAML's double-quoted form, which the rendered manifest then reads as the string itself.
 */
export function chartWord(word: string): string {
  const plain = /^[A-Za-z0-9_@%+=,./-][A-Za-z0-9_@%+=:,./-]*$/.test(word) && !word.endsWith(':');
  if (plain && readsBackAs(word, word)) return word;
  return `"${[...word].map(escapeChar).join('')}"`;
}

/** Double-quoted YAML escapes for what is not printable ASCII (YAML 1.2 5.7), and for " and \. */
function escapeChar(c: string): string {
  if (c === '"' || c === '\\') return `\\${c}`;
  const code = c.codePointAt(0)!;
  if (code >= 0x20 && code < 0x7f) return c;
  if (code <= 0xffff) return `\\u${code.toString(16).padStart(4, '0')}`;
  return `\\U${code.toString(16).padStart(8, '0')}`;
}

function readsBackAs(text: string, word: string): boolean {
  try {
    const v: unknown = parse(`- ${text}\n`);
    return Array.isArray(v) && v.length === 1 && v[0] === word;
  } catch {
    return false;
  }
}

export function helmText(plan: DeployPlan): string {
  const args = serverArgs(plan, repositoryOf(plan)).map((w) => chartWord(kubeletWord(w)));
  const values = {
    fullnameOverride: plan.name,
    image: {
      imageName: plan.image,
      modelRepositoryServer: CHART.nfsServerPlaceholder,
      modelRepositoryPath: '/srv/models',
      numGpus: plan.gpus.count,
    },
    serverArgs: args,
  };
  return yamlDocument(values, [
    {
      path: [],
      lines: [
        ...headerLines(plan, 'helm'),
        `Values for NVIDIA's chart ${CHART.source}: helm install ${plan.name} <the chart's directory> -f values.yaml`,
        `The chart sets no memory limit; the server needs ${memoryQuantity(plan.memory.limitBytes)}: ${plan.memory.why}`,
      ],
    },
    {
      path: ['image', 'modelRepositoryServer'],
      lines: [
        plan.storageUri
          ? `The chart mounts an NFS export at ${CONTAINER_REPOSITORY} whatever serverArgs say; the server reads ${plan.storageUri}: fill in any export the pods can mount`
          : `Fill in: the NFS server and the exported directory holding the contents of ${plan.named}, which the chart mounts at ${CONTAINER_REPOSITORY}`,
      ],
    },
    { path: ['image', 'numGpus'], lines: [`nvidia.com/gpu: ${plan.gpus.why}`] },
    {
      path: ['serverArgs'],
      lines: [
        'After tritonserver; explicit model control, every model loaded at start-up (never poll: tritonc docs/rules/deployment-poll.md).',
        'The chart writes each into its manifest unquoted: an entry in double quotes is YAML the manifest reads as the word inside',
      ],
    },
  ]);
}
