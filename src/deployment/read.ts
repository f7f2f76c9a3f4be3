// The deployments `lint --deployment` is given, read into the tritonservers they start: a manifest
// file (YAML, several documents; or JSON, a SageMaker CreateModel request), a directory of them (its
// *.yaml, *.yml and *.json files, not below: as kubectl apply -f DIR), a Helm chart (a directory with
// Chart.yaml, rendered by the real helm with the user's values: chart.ts), or "-" (standard input).
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DeploymentInputError } from './errors.js';
import { MAX_MANIFEST_BYTES, parseManifestText, type ManifestDocument } from './manifest-text.js';
import type { DeployedServer } from './server.js';
import { kubernetesServers } from './kubernetes.js';
import { isServingRuntime, kserveServers } from './kserve.js';
import { sagemakerServers } from './sagemaker.js';
import { readText } from '../util/read-text.js';
import { pathKind } from '../util/path-kind.js';
import { chartDocuments } from './chart.js';

const MANIFEST_FILE = /\.(ya?ml|json)$/i;
const MAX_FILES = 1000;

export interface DeploymentSources {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Standard input's text, for "-". */
  stdin?: () => Promise<string>;
  /** A Helm chart's values files and --set assignments for helm template. */
  helm?: { values?: readonly string[]; set?: readonly string[] };
}

export interface ReadDeployments {
  readonly servers: DeployedServer[];
  /** Every document read, for messages about what was found. */
  readonly documents: number;
}

/** The tritonservers the inputs start; DeploymentInputError for an input that cannot be read. */
export async function readDeployments(inputs: readonly string[], sources: DeploymentSources): Promise<ReadDeployments> {
  const documents: ManifestDocument[] = [];
  for (const input of inputs) for (const d of await documentsOf(input, sources)) documents.push(d);
  return { servers: serversOf(documents), documents: documents.length };
}

/** The tritonservers the documents start (a ServingRuntime among them is what an InferenceService may name). */
export function serversOf(documents: readonly ManifestDocument[]): DeployedServer[] {
  const runtimes = documents.filter(isServingRuntime);
  const servers: DeployedServer[] = [];
  for (const doc of documents) {
    for (const s of kubernetesServers(doc)) servers.push(s);
    for (const s of kserveServers(doc, runtimes)) servers.push(s);
    for (const s of sagemakerServers(doc)) servers.push(s);
  }
  return servers;
}

async function documentsOf(input: string, sources: DeploymentSources): Promise<ManifestDocument[]> {
  if (input === '-') {
    if (!sources.stdin) throw new DeploymentInputError('standard input is not available here');
    let text: string;
    try {
      text = await sources.stdin();
    } catch (e) {
      throw new DeploymentInputError((e as Error).message);
    }
    if (text.length > MAX_MANIFEST_BYTES) throw new DeploymentInputError(`standard input holds more than the ${MAX_MANIFEST_BYTES} bytes a manifest may have`);
    return parseManifestText(text, '<stdin>');
  }
  const path = resolve(sources.cwd, input);
  const kind = pathKind(path);
  if (kind === undefined) throw new DeploymentInputError('no such file or directory', path);
  if (kind === 'dir') {
    if (pathKind(join(path, 'Chart.yaml')) === 'file') {
      const helm = sources.helm ?? {};
      return chartDocuments(path, {
        ...(helm.values ? { values: helm.values.map((v) => resolve(sources.cwd, v)) } : {}),
        ...(helm.set ? { set: helm.set } : {}),
        ...(sources.env?.TRITONC_HELM ? { helm: sources.env.TRITONC_HELM } : {}),
      });
    }
    let names: string[];
    try {
      names = readdirSync(path)
        .filter((n) => MANIFEST_FILE.test(n))
        .sort();
    } catch (e) {
      throw new DeploymentInputError(`cannot list: ${(e as Error).message}`, path);
    }
    if (names.length > MAX_FILES) throw new DeploymentInputError(`${names.length} manifest files, more than the ${MAX_FILES} read from one directory`, path);
    const out: ManifestDocument[] = [];
    for (const n of names) if (pathKind(join(path, n)) === 'file') for (const d of fileDocuments(join(path, n))) out.push(d);
    return out;
  }
  return fileDocuments(path);
}

function fileDocuments(file: string): ManifestDocument[] {
  const read = readText(file, MAX_MANIFEST_BYTES);
  if (read.kind === 'missing') throw new DeploymentInputError('no such file', file);
  if (read.kind === 'unreadable') throw new DeploymentInputError(`cannot read: ${read.reason}`, file);
  return parseManifestText(read.text, file);
}
