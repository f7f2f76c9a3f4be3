// Whether a parsed manifest is one the Kubernetes API server would accept, as the deployment tests ask
// of every manifest tritonc writes or reads. Built-in kinds are checked by kubernetes-models 5.1.0, a
// maintained library generated from the Kubernetes OpenAPI documents (its scripts/generate.ts at
// tommy351/kubernetes-models-ts de73274 merges the specs of Kubernetes 1.15.5 ... 1.32.0 for removed
// APIs with 1.36.0, the newest); only the kinds of BUILT_IN below are accepted, all served by 1.36.
// KServe's kinds are checked against the openAPIV3Schema of KServe's own CRDs, laid out by
// scripts/kserve-crds/setup.sh (KServe v0.20.0). Any other apiVersion/kind is an error, as it is on a
// cluster without its CRD, so that a typo cannot pass.
//
// Unknown fields are errors, as on `kubectl apply` (its --validate defaults to strict since Kubernetes
// 1.27: the server decodes with fieldValidation=Strict and answers `unknown field "spec.foo"`).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator, type OutputUnit } from '@cfworker/json-schema';
import { DaemonSet, Deployment, ReplicaSet, StatefulSet } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { CronJob, Job } from 'kubernetes-models/batch/v1';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { Role, RoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1';
import { ConfigMap, Namespace, PersistentVolumeClaim, Pod, Secret, Service, ServiceAccount } from 'kubernetes-models/v1';
import { validate as validateDaemonSet } from 'kubernetes-models/_schemas/IoK8sApiAppsV1DaemonSet';
import { validate as validateDeployment } from 'kubernetes-models/_schemas/IoK8sApiAppsV1Deployment';
import { validate as validateReplicaSet } from 'kubernetes-models/_schemas/IoK8sApiAppsV1ReplicaSet';
import { validate as validateStatefulSet } from 'kubernetes-models/_schemas/IoK8sApiAppsV1StatefulSet';
import { validate as validateHpa } from 'kubernetes-models/_schemas/IoK8sApiAutoscalingV2HorizontalPodAutoscaler';
import { validate as validateCronJob } from 'kubernetes-models/_schemas/IoK8sApiBatchV1CronJob';
import { validate as validateJob } from 'kubernetes-models/_schemas/IoK8sApiBatchV1Job';
import { validate as validateConfigMap } from 'kubernetes-models/_schemas/IoK8sApiCoreV1ConfigMap';
import { validate as validateNamespace } from 'kubernetes-models/_schemas/IoK8sApiCoreV1Namespace';
import { validate as validatePvc } from 'kubernetes-models/_schemas/IoK8sApiCoreV1PersistentVolumeClaim';
import { validate as validatePod } from 'kubernetes-models/_schemas/IoK8sApiCoreV1Pod';
import { validate as validateSecret } from 'kubernetes-models/_schemas/IoK8sApiCoreV1Secret';
import { validate as validateService } from 'kubernetes-models/_schemas/IoK8sApiCoreV1Service';
import { validate as validateServiceAccount } from 'kubernetes-models/_schemas/IoK8sApiCoreV1ServiceAccount';
import { validate as validateIngress } from 'kubernetes-models/_schemas/IoK8sApiNetworkingV1Ingress';
import { validate as validatePdb } from 'kubernetes-models/_schemas/IoK8sApiPolicyV1PodDisruptionBudget';
import { validate as validateRole } from 'kubernetes-models/_schemas/IoK8sApiRbacV1Role';
import { validate as validateRoleBinding } from 'kubernetes-models/_schemas/IoK8sApiRbacV1RoleBinding';
import { parse, parseAllDocuments } from 'yaml';
import { ROOT } from './snapshot.js';

/** One error of the compiled validators of kubernetes-models (Ajv's, localized to English by Model.validate). */
interface AjvError {
  instancePath: string;
  message?: string;
  keyword: string;
  params: Record<string, unknown>;
}

/** The generated validator of a schema: true when valid, its errors on itself otherwise. */
type SchemaFunction = ((data: unknown) => boolean) & { errors?: AjvError[] | null };

interface BuiltIn {
  /** The model class: new Model(manifest).validate() throws its schema's errors. */
  model: new (data: never) => { validate(): void };
  /** The same schema's validator, which the unknown-field check runs on a manifest that records what it reads. */
  schema: SchemaFunction;
}

/** The built-in kinds a deployment of Triton is made of, by `apiVersion/kind`. */
const BUILT_IN: Readonly<Record<string, BuiltIn>> = {
  'apps/v1/Deployment': { model: Deployment, schema: validateDeployment },
  'apps/v1/StatefulSet': { model: StatefulSet, schema: validateStatefulSet },
  'apps/v1/DaemonSet': { model: DaemonSet, schema: validateDaemonSet },
  'apps/v1/ReplicaSet': { model: ReplicaSet, schema: validateReplicaSet },
  'batch/v1/Job': { model: Job, schema: validateJob },
  'batch/v1/CronJob': { model: CronJob, schema: validateCronJob },
  'v1/Pod': { model: Pod, schema: validatePod },
  'v1/Service': { model: Service, schema: validateService },
  'v1/ConfigMap': { model: ConfigMap, schema: validateConfigMap },
  'v1/Secret': { model: Secret, schema: validateSecret },
  'v1/PersistentVolumeClaim': { model: PersistentVolumeClaim, schema: validatePvc },
  'v1/ServiceAccount': { model: ServiceAccount, schema: validateServiceAccount },
  'v1/Namespace': { model: Namespace, schema: validateNamespace },
  'autoscaling/v2/HorizontalPodAutoscaler': { model: HorizontalPodAutoscaler, schema: validateHpa },
  'policy/v1/PodDisruptionBudget': { model: PodDisruptionBudget, schema: validatePdb },
  'networking.k8s.io/v1/Ingress': { model: Ingress, schema: validateIngress },
  'rbac.authorization.k8s.io/v1/Role': { model: Role, schema: validateRole },
  'rbac.authorization.k8s.io/v1/RoleBinding': { model: RoleBinding, schema: validateRoleBinding },
};

/** Where scripts/kserve-crds/setup.sh lays KServe's CRDs out. */
export const KSERVE_CRDS = process.env.KSERVE_CRDS ?? join(ROOT, '.kserve-crds');

/** KServe's kinds: the CRD file that defines each, by `apiVersion/kind`. */
const KSERVE_KINDS: Readonly<Record<string, string>> = {
  'serving.kserve.io/v1beta1/InferenceService': 'serving.kserve.io_inferenceservices.yaml',
  'serving.kserve.io/v1alpha1/ServingRuntime': 'serving.kserve.io_servingruntimes.yaml',
  'serving.kserve.io/v1alpha1/ClusterServingRuntime': 'serving.kserve.io_clusterservingruntimes.yaml',
};

/** Whether the KServe CRDs are laid out here. */
export const haveKserveCrds = (): boolean => existsSync(join(KSERVE_CRDS, 'VERSION'));

/** Whether `suite`, which checks KServe's kinds, runs here; says why not in one line. With CI=true it must run. */
export function kserveCrdsRun(suite: string): boolean {
  const runs = haveKserveCrds() || process.env.CI === 'true';
  if (!runs) console.log(`tritonc: ${suite} skipped: no KServe CRDs in ${KSERVE_CRDS} (bash scripts/kserve-crds/setup.sh lays them out)`);
  return runs;
}

/**
 * What the Kubernetes API server would reject in one parsed manifest (a YAML document or a JSON
 * object), one line each; empty when it would accept it. Throws where a KServe kind is checked and
 * the CRDs are not laid out (bash scripts/kserve-crds/setup.sh).
 */
export function kubernetesSchemaErrors(manifest: unknown): string[] {
  if (!isObject(manifest)) return ['a manifest is a mapping with apiVersion and kind'];
  const { apiVersion, kind } = manifest;
  if (typeof apiVersion !== 'string' || apiVersion === '') return ['apiVersion: required, a string'];
  if (typeof kind !== 'string' || kind === '') return ['kind: required, a string'];
  const key = `${apiVersion}/${kind}`;
  const builtIn = BUILT_IN[key];
  if (builtIn) return builtInErrors(builtIn, manifest);
  const crd = KSERVE_KINDS[key];
  if (crd) return customResourceErrors(crdSchema(crd, apiVersion), manifest);
  // kubectl's words for a kind the cluster does not serve (k8s.io/apimachinery pkg/api/meta/errors.go, NoKindMatchError).
  return [`no matches for kind "${kind}" in version "${apiVersion}"`];
}

function builtInErrors(builtIn: BuiltIn, manifest: Record<string, unknown>): string[] {
  const errors: string[] = [];
  try {
    new builtIn.model(manifest as never).validate();
  } catch (e) {
    const found = (e as { errors?: AjvError[] }).errors;
    if (!Array.isArray(found)) throw e;
    errors.push(...found.map((err) => `${err.instancePath || '/'}: ${err.message ?? err.keyword}`));
  }
  return [...errors, ...unknownFields(builtIn.schema, manifest)];
}

/**
 * The fields of `manifest` that `schema` does not declare. kubernetes-models ships its schemas as
 * compiled validators, not as documents to walk; a compiled validator reads every property its schema
 * declares on each object it is given (`data.replicas !== undefined`), and every key of a map (`for
 * key in data`). So it is run on a copy that records what it reads: a key of an object the validator
 * read from but never read this key of is one the schema does not have. An object the validator reads
 * nothing of is free-form (declares no properties), as the API server's pruning leaves it.
 */
function unknownFields(schema: SchemaFunction, manifest: Record<string, unknown>): string[] {
  const nodes: RecordedNode[] = [];
  schema(recording(manifest, '', nodes));
  const unknown: string[] = [];
  for (const node of nodes) {
    if (node.read.size === 0) continue;
    for (const key of node.keys) if (!node.read.has(key)) unknown.push(unknownField(node.path, key));
  }
  return unknown;
}

interface RecordedNode {
  path: string;
  keys: readonly string[];
  read: Set<string>;
}

function recording(value: unknown, path: string, nodes: RecordedNode[]): unknown {
  if (Array.isArray(value)) return value.map((item, i) => recording(item, `${path}[${i}]`, nodes));
  if (!isObject(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = recording(item, fieldPath(path, key), nodes);
  const read = new Set<string>();
  nodes.push({ path, keys: Object.keys(copy), read });
  return new Proxy(copy, {
    get(target, key, receiver) {
      if (typeof key === 'string') read.add(key);
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}

// The API server's words for a field its schema lacks (apiextensions-apiserver v0.36.3
// pkg/apiserver/customresource_handler.go:1340; built-in kinds answer the same through sigs.k8s.io/json).
const unknownField = (path: string, key: string): string => `unknown field "${fieldPath(path, key)}"`;
const fieldPath = (path: string, key: string): string => (path === '' ? key : `${path}.${key}`);

// ---- KServe's kinds: a CRD's structural schema as apiextensions-apiserver (v0.36.3) applies it ----

/** A node of a CRD's openAPIV3Schema (apiextensions.k8s.io/v1 JSONSchemaProps), the parts read here. */
interface CrdSchema {
  type?: string;
  format?: string;
  nullable?: boolean;
  properties?: Record<string, CrdSchema>;
  additionalProperties?: CrdSchema | boolean;
  items?: CrdSchema;
  anyOf?: CrdSchema[];
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  [keyword: string]: unknown;
}

interface LoadedCrd {
  structural: CrdSchema;
  validator: Validator;
}

const loaded = new Map<string, LoadedCrd>();

/** The schema of `apiVersion` in the CRD file `file`, read once. */
function crdSchema(file: string, apiVersion: string): LoadedCrd {
  const key = `${file} ${apiVersion}`;
  const cached = loaded.get(key);
  if (cached) return cached;
  const path = join(KSERVE_CRDS, file);
  if (!existsSync(path)) throw new Error(`no KServe CRD ${path}: bash scripts/kserve-crds/setup.sh lays them out`);
  const crd = parse(readFileSync(path, 'utf8')) as { spec: { versions: { name: string; schema: { openAPIV3Schema: CrdSchema } }[] } };
  const version = apiVersion.slice(apiVersion.indexOf('/') + 1);
  const found = crd.spec.versions.find((v) => v.name === version);
  if (!found) throw new Error(`${path} does not define version ${version}`);
  const structural = found.schema.openAPIV3Schema;
  const entry = { structural, validator: new Validator(asJsonSchema(structural), '2020-12', false) };
  loaded.set(key, entry);
  return entry;
}

/**
 * The CRD schema as a JSON Schema the validator reads, translated as the API server's own conversion
 * does (apiextensions-apiserver v0.36.3 pkg/apiserver/validation/validation.go,
 * ConvertJSONSchemaPropsWithPostProcess): `x-kubernetes-int-or-string` makes the type integer or
 * string (lines 264-267), `nullable` admits null (line 268). Formats: kube-openapi checks formats of
 * strings only, so int32/int64 on numbers say nothing. The x-kubernetes-* extensions are the structural
 * part that customResourceErrors applies itself.
 */
function asJsonSchema(node: CrdSchema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (keyword.startsWith('x-kubernetes-') || keyword === 'nullable' || keyword === 'default') continue;
    if (keyword === 'properties') out.properties = mapValues(value as Record<string, CrdSchema>, asJsonSchema);
    else if (keyword === 'items' || (keyword === 'additionalProperties' && typeof value === 'object')) out[keyword] = asJsonSchema(value as CrdSchema);
    else if (keyword === 'anyOf' || keyword === 'allOf' || keyword === 'oneOf') out[keyword] = (value as CrdSchema[]).map(asJsonSchema);
    else if (keyword === 'not') out.not = asJsonSchema(value as CrdSchema);
    else if (keyword === 'format' && node.type !== 'string') continue;
    else out[keyword] = value;
  }
  if (node['x-kubernetes-int-or-string'] === true) {
    out.type = ['integer', 'string'];
    // controller-gen's anyOf of the two types says the same thing again, and would only repeat the error.
    delete out.anyOf;
  }
  if (node.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  return out;
}

function mapValues<T, U>(record: Record<string, T>, f: (value: T) => U): Record<string, U> {
  const out: Record<string, U> = {};
  for (const [key, value] of Object.entries(record)) out[key] = f(value);
  return out;
}

/** Keywords whose error only says that one below them failed: that one is reported instead. */
const CASCADE = new Set(['properties', 'items', 'prefixItems', 'additionalProperties', 'allOf', '$ref', 'unevaluatedProperties']);

function customResourceErrors(crd: LoadedCrd, manifest: Record<string, unknown>): string[] {
  const errors: string[] = [];
  const result = crd.validator.validate(manifest);
  if (!result.valid) errors.push(...result.errors.filter((e: OutputUnit) => !CASCADE.has(e.keyword)).map(schemaError));
  // The root's metadata is an ObjectMeta, which the API server checks as it does any object's
  // (the CRD schema may only restrict name and generateName): here, as a ConfigMap's metadata.
  if (manifest.metadata !== undefined) {
    const meta = builtInErrors(BUILT_IN['v1/ConfigMap']!, { apiVersion: 'v1', kind: 'ConfigMap', metadata: manifest.metadata });
    errors.push(...meta);
  }
  // Pruning, with fieldValidation=Strict its unknown fields reported (pkg/apiserver/schema/pruning/algorithm.go),
  // and the list types' uniqueness (pkg/apiserver/schema/listtype/validation.go).
  structuralErrors(manifest, crd.structural, '', true, errors);
  return errors;
}

function schemaError(e: OutputUnit): string {
  const pointer = e.instanceLocation.replace(/^#/, '');
  return `${pointer === '' ? '/' : pointer}: ${e.error}`;
}

// apiVersion, kind and metadata of an embedded resource, or of the root (algorithm.go:51-55).
const META_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

/**
 * The walk of apiextensions-apiserver's prune (pkg/apiserver/schema/pruning/algorithm.go:57-113): below
 * `x-kubernetes-preserve-unknown-fields` anything goes; a key that is neither a property nor covered by
 * additionalProperties is an unknown field, except apiVersion, kind and metadata at the root and in an
 * embedded resource. Arrays with `x-kubernetes-list-type: set` hold no value twice, with `map` no two
 * items with the same `x-kubernetes-list-map-keys` (listtype/validation.go:66-81).
 */
function structuralErrors(value: unknown, schema: CrdSchema | undefined, path: string, root: boolean, errors: string[]): void {
  if (schema?.['x-kubernetes-preserve-unknown-fields'] === true) return;
  if (Array.isArray(value)) {
    if (schema) errors.push(...listTypeErrors(value, schema, path));
    value.forEach((item, i) => structuralErrors(item, schema?.items, `${path}[${i}]`, false, errors));
    return;
  }
  if (!isObject(value)) return;
  for (const [key, item] of Object.entries(value)) {
    if ((root || schema?.['x-kubernetes-embedded-resource'] === true) && META_FIELDS.has(key)) continue;
    const property = schema?.properties?.[key];
    const additional = schema?.additionalProperties;
    if (property) structuralErrors(item, property, fieldPath(path, key), false, errors);
    else if (additional !== undefined && additional !== false)
      structuralErrors(item, additional === true ? { 'x-kubernetes-preserve-unknown-fields': true } : additional, fieldPath(path, key), false, errors);
    else errors.push(unknownField(path, key));
  }
}

function listTypeErrors(list: readonly unknown[], schema: CrdSchema, path: string): string[] {
  const type = schema['x-kubernetes-list-type'];
  if (type !== 'set' && type !== 'map') return [];
  const keys = schema['x-kubernetes-list-map-keys'] ?? [];
  const seen = new Set<string>();
  const errors: string[] = [];
  list.forEach((item, i) => {
    const identity = JSON.stringify(type === 'set' ? item : keys.map((k) => (isObject(item) ? item[k] : undefined)));
    if (seen.has(identity)) errors.push(`${path}[${i}]: Duplicate value: ${identity}`);
    seen.add(identity);
  });
  return errors;
}

/** The documents of a YAML file, each parsed as a plain value; throws on the first that does not parse. */
export function yamlDocuments(file: string): unknown[] {
  return parseAllDocuments(readFileSync(file, 'utf8')).map((doc, i) => {
    if (doc.errors.length > 0) throw new Error(`${file}, document ${i + 1}: ${doc.errors.map((e) => e.message).join('; ')}`);
    return doc.toJS() as unknown;
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
