// protobuf's C++ text-format parser, the family Triton links (libprotobuf 3.21 in Debian's
// protobuf-compiler): `protoc --encode=inference.ModelConfig` reads a config on stdin with
// TextFormat::Parser and writes the binary message, or fails with the parser's errors.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { protoRoot } from '../../src/config/schema-source.js';

const SCHEMAS = fileURLToPath(new URL('../../schemas/', import.meta.url));

export type CppAnswer = { ok: true; bytes: Buffer } | { ok: false; error: string };

export function cppAvailable(): { ok: true; version: string } | { ok: false; reason: string } {
  const r = spawnSync('protoc', ['--version'], { encoding: 'utf8' });
  if (r.status !== 0) return { ok: false, reason: 'protoc is not installed (protobuf-compiler)' };
  return { ok: true, version: r.stdout.trim() };
}

export function parseWithCpp(text: string | Buffer): CppAnswer {
  const r = spawnSync('protoc', [`--proto_path=${SCHEMAS}`, '--encode=inference.ModelConfig', 'model_config.proto'], {
    input: text,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status === 0) return { ok: true, bytes: r.stdout };
  return { ok: false, error: r.stderr.toString('utf8').trim() };
}

let root: ReturnType<typeof protoRoot> | undefined;

/** The message protoc wrote, in the JSON form of Python's MessageToDict (proto field names, int64 as strings). */
export function cppMessageJson(bytes: Buffer): Record<string, unknown> {
  const type = (root ??= protoRoot()).lookupType('inference.ModelConfig');
  return type.toObject(type.decode(bytes), { longs: String, enums: String, bytes: String, defaults: false });
}
