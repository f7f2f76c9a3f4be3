// The engine arguments vLLM takes in model.json, per release (data/vllm-engine-args.json says where each
// release's list was read). vllm_backend src/model.py (@ 8de0c148, lines 211-227) passes model.json as
// AsyncEngineArgs(**json), unchanged: a key that is no field of the installed vLLM's AsyncEngineArgs
// dataclass is a TypeError and the model does not load; values are not checked there (a dataclass
// checks no types), so "true" for a bool is a truthy string.
import data from '../../data/vllm-engine-args.json' with { type: 'json' };

export type JsonKind = 'bool' | 'int' | 'float' | 'string' | 'null' | 'object' | 'array';

export interface EngineArg {
  /** The JSON kinds the field's annotation admits. */
  kinds?: readonly JsonKind[];
  /** A Literal annotation's values. */
  values?: readonly unknown[];
}

interface Field {
  in: [number, number][];
  kinds?: JsonKind[];
  values?: unknown[];
}

const FIELDS = data.fields as unknown as Record<string, Field>;

/** The releases whose lists we have, oldest first. */
export const VLLM_VERSIONS: readonly string[] = data.versions.map((v) => v.version);

const present = (f: Field, i: number): boolean => f.in.some(([a, b]) => i >= a && i <= b);

/** The field `name` of `version`'s AsyncEngineArgs, or undefined when that release has no such field. */
export function engineArg(name: string, version: string): EngineArg | undefined {
  const f = FIELDS[name];
  const i = VLLM_VERSIONS.indexOf(version);
  if (!f || i < 0 || !present(f, i)) return undefined;
  return { ...(f.kinds ? { kinds: f.kinds } : {}), ...(f.values ? { values: f.values } : {}) };
}

/** The releases of our list that have `name`, oldest first. */
export function versionsWith(name: string): string[] {
  const f = FIELDS[name];
  return f ? VLLM_VERSIONS.filter((_, i) => present(f, i)) : [];
}

/** Every field name of `version` (every release's, without a version). */
export function engineArgNames(version?: string): string[] {
  const i = version === undefined ? -1 : VLLM_VERSIONS.indexOf(version);
  return Object.entries(FIELDS)
    .filter(([, f]) => i < 0 || present(f, i))
    .map(([n]) => n);
}

/** The JSON kind of a parsed value, as engine-argument kinds name them. */
export function jsonKind(value: unknown): JsonKind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'string') return 'string';
  return 'object';
}
