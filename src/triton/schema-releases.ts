// Which Triton releases know each ModelConfig field that came between 24.05 and the newest release.
// tritonc's schema (schemas/model_config.proto) is common main's; a release reads a config with the
// model_config.proto of its own common branch, and protobuf's text parser refuses a field that
// proto lacks ("Message type ... has no field named ..."), so the config never loads. Read by diffing
// triton-inference-server/common protobuf/model_config.proto at r24.05 … r26.07 (common has no r26.08
// branch; main at 83adf7c, the schema's source, equals r26.07). No enum value arrived or left in that
// range, and no field left.
import type { PathSegment } from '../diagnostics.js';
import type { ModelConfig } from '../config/model-config.js';
import { loadSchema, type SchemaField, type SchemaMessage } from '../config/schema.js';
import { holdsIn, valueIn, type ByRelease, type ReleaseName, type Releases, type TritonRelease } from './releases/catalog.js';
import type { ReleaseChange } from './releases/changes.js';

/** A field that arrived in a release: its proto path (package, message, field), from when, where it was read. */
interface FieldArrival {
  readonly path: string;
  readonly since: ReleaseName;
  readonly source: string;
}

const PROTO = 'triton-inference-server/common protobuf/model_config.proto';

const ARRIVALS: readonly FieldArrival[] = [
  // bool is_non_linear_format_io = 9 (ModelInput) and = 7 (ModelOutput): absent at r24.07 (54ce011), present at r24.08 (2e9cb9a).
  { path: 'inference.ModelInput.is_non_linear_format_io', since: '24.08', source: `${PROTO} @ r24.08 (2e9cb9a; not at r24.07)` },
  { path: 'inference.ModelOutput.is_non_linear_format_io', since: '24.08', source: `${PROTO} @ r24.08 (2e9cb9a; not at r24.07)` },
  // ModelMetrics model_metrics = 26, with its message ModelMetrics: absent at r24.10 (578491f), present at r24.11 (8637128).
  { path: 'inference.ModelConfig.model_metrics', since: '24.11', source: `${PROTO} @ r24.11 (8637128; not at r24.10)` },
  // uint32 max_inflight_requests = 2: absent at r25.10 (da18f28), present at r25.11 (c09e98a).
  { path: 'inference.ModelEnsembling.max_inflight_requests', since: '25.11', source: `${PROTO} @ r25.11 (c09e98a; not at r25.10)` },
];

const BY_PATH = new Map(ARRIVALS.map((a) => [a.path, a]));

/** The releases whose schema has `field`; undefined for a field every release tritonc knows has. */
export function fieldReleases(field: SchemaField): (Releases & { readonly since: ReleaseName }) | undefined {
  const a = BY_PATH.get(`${field.parent.fullName}.${field.name}`);
  return a && { since: a.since };
}

/** Whether Triton `release` can read a config that sets `field`. */
export function releaseHasField(field: SchemaField, release: TritonRelease): boolean {
  return holdsIn(fieldReleases(field), release);
}

/**
 * Whether `message`, or a message below it at any depth, has a field `release` lacks: a walk looking for
 * them skips the rest (for the newest release, everything).
 */
export function reachesFieldMissingIn(message: SchemaMessage, release: TritonRelease): boolean {
  const key = `${release.container}\u0000${message.fullName}`;
  let known = REACHES.get(key);
  if (known !== undefined) return known;
  // ModelConfig's schema has no recursive message; the mark only keeps one from looping.
  REACHES.set(key, false);
  // A map field's type is its entry message, whose `value` field leads on.
  known = message.fieldList.some((f) => !releaseHasField(f, release) || (f.type.kind === 'message' && reachesFieldMissingIn(f.type.message, release)));
  REACHES.set(key, known);
  return known;
}
const REACHES = new Map<string, boolean>();

/**
 * Every field a config sets that `release` lacks, with where (not looking inside one): what that
 * release's text parser refuses. Walks only messages that can hold one (for the newest release, none).
 */
export function fieldsMissingIn(config: ModelConfig, release: TritonRelease): { field: SchemaField; path: PathSegment[] }[] {
  const found: { field: SchemaField; path: PathSegment[] }[] = [];
  const schema = loadSchema().modelConfig;
  if (reachesFieldMissingIn(schema, release)) walk(config as Record<string, unknown>, schema, [], release, (field, path) => found.push({ field, path }));
  return found;
}

/** Every field set in `value` that `release` lacks (not looking inside one), visiting only messages that can hold one. */
function walk(
  value: Record<string, unknown>,
  message: SchemaMessage,
  path: PathSegment[],
  release: TritonRelease,
  found: (field: SchemaField, path: PathSegment[]) => void,
): void {
  for (const field of message.fieldList) {
    const v = value[field.name];
    if (v === undefined || v === null) continue;
    if (!releaseHasField(field, release)) {
      found(field, [...path, field.name]);
      continue;
    }
    if (field.type.kind !== 'message' || !reachesFieldMissingIn(field.type.message, release)) continue;
    if (field.mapEntry) {
      const entry = field.mapEntry.fields.get('value')!.type;
      if (entry.kind === 'message')
        for (const [key, e] of Object.entries(v as Record<string, Record<string, unknown>>)) walk(e, entry.message, [...path, field.name, key], release, found);
    } else if (field.repeated) {
      const m = field.type.message;
      (v as Record<string, unknown>[]).forEach((e, i) => walk(e, m, [...path, field.name, i], release, found));
    } else walk(v as Record<string, unknown>, field.type.message, [...path, field.name], release, found);
  }
}

/**
 * What ensemble_scheduling.max_inflight_requests limits. r25.11's core gives each ensemble request its
 * own limiter per step (EnsembleContext's constructor); from r26.04 one limiter per step is shared by
 * all of the ensemble's requests (EnsembleScheduler's constructor; core a02b0c0, "Enforce
 * `max_inflight_requests` as a shared limit across ensemble requests", #482), and the proto's comment
 * says so.
 */
const ENSEMBLE_INFLIGHT_LIMIT: readonly ByRelease<string>[] = [
  {
    since: '25.11',
    value: 'it limits the in-flight requests of each step within one ensemble request: every request has its own limit',
    source: 'triton-inference-server/core src/ensemble_scheduler/ensemble_scheduler.cc @ r25.11 (EnsembleContext::EnsembleContext allocates the limiters)',
  },
  {
    since: '26.04',
    value: "it limits the in-flight requests of each step across all of the ensemble's requests together: one limit shared by them",
    source:
      'triton-inference-server/core src/ensemble_scheduler/ensemble_scheduler.cc @ r26.04 (EnsembleScheduler::EnsembleScheduler allocates them; a02b0c0, core #482)',
  },
];

/** Whether `release`'s core shares one max_inflight_requests limiter per step among all of an ensemble's requests (26.04 on). */
export const ensembleLimitShared = (release: TritonRelease): boolean => valueIn(ENSEMBLE_INFLIGHT_LIMIT, release) === ENSEMBLE_INFLIGHT_LIMIT[1];

/** Fields whose meaning changed between releases (while their name and type stayed), by proto path. */
const MEANINGS = new Map<string, readonly ByRelease<string>[]>([['inference.ModelEnsembling.max_inflight_requests', ENSEMBLE_INFLIGHT_LIMIT]]);

/** What `field` means in `release`, where that changed between releases: a sentence. */
export function fieldMeaningIn(field: SchemaField, release: TritonRelease): string | undefined {
  const table = MEANINGS.get(`${field.parent.fullName}.${field.name}`);
  return table && valueIn(table, release)?.value;
}

/** The schema's changes, for RELEASE_CHANGES. */
export const MODEL_CONFIG_CHANGES: readonly ReleaseChange[] = [
  ...ARRIVALS.map((a): ReleaseChange => ({
    area: 'model config',
    what: `${a.path.replace(/^inference\./, '').replace(/\.([^.]+)$/, ' has the field $1')}`,
    releases: { since: a.since },
    source: a.source,
  })),
  {
    area: 'model config',
    what: "ModelEnsembling.max_inflight_requests limits each step across all of the ensemble's requests together (before: per ensemble request)",
    releases: { since: '26.04' },
    source: ENSEMBLE_INFLIGHT_LIMIT[1]!.source,
  },
];
