// Objects keyed by names users choose (models, versions, tensors). A plain {} lends every key of
// Object.prototype ("constructor", "hasOwnProperty") and turns a write of "__proto__" into a change of
// its prototype; a record with no prototype has only the keys written to it, "__proto__" included, and
// JSON.stringify writes it as any object.

/** An empty record with no prototype: every name a key like any other. */
export function nameRecord<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** The record's own value at `key`, never one its prototype lends (for records parsed or made elsewhere). */
export function ownValue<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}
