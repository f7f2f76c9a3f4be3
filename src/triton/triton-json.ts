// A config in the JSON form Triton's GET /v2/models/<name>/config returns (core ModelConfigToJson):
// protobuf's MessageToJsonString with preserve_proto_field_names and always_print_primitive_fields,
// then Triton's own fix-up that turns SOME 64-bit integers from protobuf's strings into numbers.
//
// What that means, field by field (checked against core's model_config_utils.cc and real answers):
// - every scalar of a present message is printed, defaults included ("runtime": "", "count": 0);
// - every repeated and map field of a present message is printed, empty ones as [] and {}
//   ("batch_input": [], "parameters": {}); absent sub-messages are not printed;
// - enums by name; float fields in their shortest form (0.1, not 0.10000000149011612);
// - 64-bit integers are numbers at exactly the paths ModelConfigToJson fixes (dims, reshape shapes,
//   versions, batcher delays and levels, state dims, step model_version, warmup dims) and stay
//   protobuf's strings elsewhere: instance_group.secondary_devices.device_id, the CUDA graph_spec
//   dims, sequence_batching.state.initial_state.dims (core looks for initial_state in the wrong
//   object, so it never converts them) and map keys.
import type { ModelConfig } from '../config/model-config.js';
import { toProtoJson } from '../config/proto-json.js';
import { loadSchema, type SchemaMessage } from '../config/schema.js';
import type { TritonRelease } from './releases/catalog.js';
import { reachesFieldMissingIn, releaseHasField } from './schema-releases.js';

/** JSON with exact 64-bit integers: a bigint prints as its digits. */
export type TritonJson = string | number | bigint | boolean | null | TritonJson[] | { [k: string]: TritonJson };
type JsonObject = { [k: string]: TritonJson };

/**
 * The config as Triton's GET /v2/models/<m>/config prints it; given the release, only the fields its
 * schema has (an older server prints no default of a field it does not know).
 */
export function tritonConfigJson(config: ModelConfig, release?: TritonRelease): JsonObject {
  const message = loadSchema().modelConfig;
  const json = toProtoJson(withEmptyLists(config as Record<string, unknown>, message), message, { emitDefaults: true }) as JsonObject;
  shortenFloats(json, message);
  fixInt64(json);
  if (release) dropFieldsMissingIn(json, message, release);
  return json;
}

function dropFieldsMissingIn(json: JsonObject, message: SchemaMessage, release: TritonRelease): void {
  if (!reachesFieldMissingIn(message, release)) return;
  for (const field of message.fieldList) {
    const v = json[field.name];
    if (v === undefined) continue;
    if (!releaseHasField(field, release)) {
      delete json[field.name];
      continue;
    }
    const type = field.mapEntry ? field.mapEntry.fields.get('value')!.type : field.type;
    if (type.kind !== 'message') continue;
    const items = field.mapEntry ? Object.values(v as JsonObject) : field.repeated ? (v as TritonJson[]) : [v];
    for (const item of items) dropFieldsMissingIn(item as JsonObject, type.message, release);
  }
}

/**
 * always_print_primitive_fields prints empty repeated and map fields of message type too (e.g.
 * "batch_input": [], "priority_queue_policy": {}); toProtoJson's emitDefaults covers scalar ones, so
 * the message-typed ones are made explicit here.
 */
function withEmptyLists(value: Record<string, unknown>, message: SchemaMessage): Record<string, unknown> {
  const out: Record<string, unknown> = { ...value };
  for (const field of message.fieldList) {
    const v = out[field.name];
    if (field.type.kind !== 'message') continue;
    if (field.mapEntry) {
      const valueField = field.mapEntry.fields.get('value')!;
      if (v === undefined) out[field.name] = {};
      else if (valueField.type.kind === 'message') {
        const m = valueField.type.message;
        out[field.name] = Object.fromEntries(Object.entries(v as Record<string, Record<string, unknown>>).map(([k, e]) => [k, withEmptyLists(e, m)]));
      }
    } else if (field.repeated) {
      out[field.name] =
        v === undefined ? [] : (v as Record<string, unknown>[]).map((e) => withEmptyLists(e, field.type.kind === 'message' ? field.type.message : message));
    } else if (v !== undefined) {
      out[field.name] = withEmptyLists(v as Record<string, unknown>, field.type.message);
    }
  }
  return out;
}

/** The shortest decimal that reads back as the same float32, as protobuf prints float fields. */
export function shortestFloat32(n: number): number {
  const f = Math.fround(n);
  if (!Number.isFinite(f)) return f;
  for (let digits = 1; digits <= 9; digits++) {
    const candidate = Number(f.toPrecision(digits));
    if (Math.fround(candidate) === f) return candidate;
  }
  return f;
}

function shortenFloats(json: JsonObject, message: SchemaMessage): void {
  for (const field of message.fieldList) {
    const v = json[field.name];
    if (v === undefined) continue;
    const type = field.mapEntry ? field.mapEntry.fields.get('value')!.type : field.type;
    if (type.kind === 'message') {
      const items = field.mapEntry ? Object.values(v as JsonObject) : field.repeated ? (v as TritonJson[]) : [v];
      for (const item of items) shortenFloats(item as JsonObject, type.message);
    } else if (type.kind === 'scalar' && type.type === 'float') {
      if (field.repeated) json[field.name] = (v as TritonJson[]).map((x) => (typeof x === 'number' ? shortestFloat32(x) : x));
      else if (typeof v === 'number') json[field.name] = shortestFloat32(v);
    }
  }
}

const toInteger = (v: TritonJson): TritonJson => {
  if (typeof v !== 'string' || !/^-?\d+$/.test(v)) return v;
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : BigInt(v);
};

const obj = (v: TritonJson | undefined): JsonObject | undefined => (v && typeof v === 'object' && !Array.isArray(v) && typeof v !== 'bigint' ? v : undefined);
const arr = (v: TritonJson | undefined): TritonJson[] => (Array.isArray(v) ? v : []);

function fixInt(o: JsonObject | undefined, key: string): void {
  if (o && o[key] !== undefined) o[key] = toInteger(o[key]);
}

function fixIntArray(o: JsonObject | undefined, key: string): void {
  if (o && Array.isArray(o[key])) o[key] = o[key].map(toInteger);
}

/** Mirrors ModelConfigToJson's fix-ups, path by path (and its one miss, initial_state). */
function fixInt64(json: JsonObject): void {
  for (const side of ['input', 'output']) {
    for (const io of arr(json[side])) {
      fixIntArray(obj(io), 'dims');
      fixIntArray(obj(obj(io)?.reshape), 'shape');
    }
  }
  fixIntArray(obj(obj(json.version_policy)?.specific), 'versions');

  const db = obj(json.dynamic_batching);
  if (db) {
    for (const k of ['max_queue_delay_microseconds', 'priority_levels', 'default_priority_level']) fixInt(db, k);
    fixInt(obj(db.default_queue_policy), 'default_timeout_microseconds');
    for (const policy of Object.values(obj(db.priority_queue_policy) ?? {})) fixInt(obj(policy), 'default_timeout_microseconds');
  }

  const sb = obj(json.sequence_batching);
  if (sb) {
    fixInt(sb, 'max_sequence_idle_microseconds');
    fixInt(obj(sb.oldest), 'max_queue_delay_microseconds');
    fixInt(obj(sb.direct), 'max_queue_delay_microseconds');
    for (const state of arr(sb.state)) fixIntArray(obj(state), 'dims');
  }

  for (const s of arr(obj(json.ensemble_scheduling)?.step)) fixInt(obj(s), 'model_version');

  for (const warmup of arr(json.model_warmup)) {
    for (const input of Object.values(obj(obj(warmup)?.inputs) ?? {})) fixIntArray(obj(input), 'dims');
  }
}

/** JSON.stringify for TritonJson: bigints as digits, `indent` spaces per level (0 = one line, as Triton sends it). */
export function stringifyTritonJson(value: TritonJson, indent = 2): string {
  const pad = (level: number): string => (indent ? `\n${' '.repeat(indent * level)}` : '');
  const colon = indent ? ': ' : ':';
  const write = (v: TritonJson, level: number): string => {
    if (typeof v === 'bigint') return v.toString();
    if (v === null || typeof v !== 'object') return JSON.stringify(v);
    if (Array.isArray(v)) {
      if (!v.length) return '[]';
      return `[${v.map((e) => `${pad(level + 1)}${write(e, level + 1)}`).join(',')}${pad(level)}]`;
    }
    const entries = Object.entries(v);
    if (!entries.length) return '{}';
    return `{${entries.map(([k, e]) => `${pad(level + 1)}${JSON.stringify(k)}${colon}${write(e, level + 1)}`).join(',')}${pad(level)}}`;
  };
  return write(value, 0);
}
