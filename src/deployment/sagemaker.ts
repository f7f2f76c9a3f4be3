// SageMaker: a CreateModel request (the JSON the API, the CLI's --cli-input-json and boto3 take) for
// NVIDIA's Triton image, read into the tritonserver its serve script starts (triton/sagemaker-serve.ts):
// PrimaryContainer or each of Containers, its Image, Environment, Mode and ModelDataUrl (or
// ModelDataSource.S3DataSource.S3Uri), which SageMaker unpacks into /opt/ml/model.
import type { ManifestDocument, ValuePath } from './manifest-text.js';
import type { DeployedServer, Located } from './server.js';
import { isRecord, valueAt } from './kubernetes.js';
import { parseTritonCommandLine } from '../triton/command-line.js';
import { shellCommands } from './shell-words.js';
import { ADDITIONAL_ARGS_VARIABLE, SAGEMAKER_SINGLE_MODEL_REPO, serveScriptArgs } from '../triton/sagemaker-serve.js';

/** Whether a document is a CreateModel request. */
export function isCreateModel(value: unknown): boolean {
  return isRecord(value) && (isRecord(value.PrimaryContainer) || Array.isArray(value.Containers));
}

/** The Triton servers a CreateModel request starts (containers whose image is NVIDIA's SageMaker Triton image). */
export function sagemakerServers(doc: ManifestDocument): DeployedServer[] {
  const v = doc.value;
  if (!isCreateModel(v)) return [];
  const record = v as Record<string, unknown>;
  const name = typeof record.ModelName === 'string' ? record.ModelName : '(unnamed)';
  const paths: ValuePath[] = isRecord(record.PrimaryContainer)
    ? [['PrimaryContainer']]
    : (record.Containers as unknown[]).map((_, i) => ['Containers', i] as ValuePath);
  const out: DeployedServer[] = [];
  for (const path of paths) {
    const c = valueAt(v, path);
    if (!isRecord(c) || typeof c.Image !== 'string' || !/tritonserver/.test(c.Image)) continue;
    const env = new Map<string, Located<string>>();
    if (isRecord(c.Environment))
      for (const [k, value] of Object.entries(c.Environment)) if (typeof value === 'string') env.set(k, { value, at: doc.locate([...path, 'Environment', k]) });
    const lookup = (k: string) => env.get(k)?.value;
    const at = doc.locate(path);
    const words: Located<string>[] = serveScriptArgs(lookup).map((value) => ({ value, at }));
    // serve:134: the additional arguments are appended unquoted, split by the shell.
    const extra = env.get(ADDITIONAL_ARGS_VARIABLE);
    if (extra) for (const w of shellCommands(extra.value, () => undefined).flat()) words.push({ value: w, at: extra.at });
    const dataUrl = typeof c.ModelDataUrl === 'string' ? { p: [...path, 'ModelDataUrl'], v: c.ModelDataUrl } : undefined;
    const s3 = valueAt(c, ['ModelDataSource', 'S3DataSource', 'S3Uri']);
    const source = dataUrl ?? (typeof s3 === 'string' ? { p: [...path, 'ModelDataSource', 'S3DataSource', 'S3Uri'], v: s3 } : undefined);
    out.push({
      platform: 'sagemaker',
      name: `CreateModel ${name}, ${path.join('.')}`,
      at,
      image: { value: c.Image, at: doc.locate([...path, 'Image']) },
      words,
      commandLine: parseTritonCommandLine(words.map((w) => w.value)),
      env,
      ...(source ? { storage: { uri: { value: source.v, at: doc.locate(source.p) }, mountPath: SAGEMAKER_SINGLE_MODEL_REPO } } : {}),
    });
  }
  return out;
}
