// A PyTorch model in object storage: read by ranged reads (the end record, the central directory,
// data.pkl's head, the code record), never the weights; the same signature as from the disk.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTorchSignatureFrom, readTorchSignatureOfBytes } from '../../src/pytorch/reader.js';
import { MountedRepository } from '../../src/remote/mounted.js';
import type { ObjectStore } from '../../src/remote/store.js';
import { parseRemoteUrl } from '../../src/remote/url.js';
import { ROOT } from '../support/snapshot.js';
import { torchscriptZip } from './zip-builder.js';

const QA = readFileSync(join(ROOT, 'fixtures/models/pytorch/libtorch_named/1/model.pt'));
const CODE = 'class Net(Module):\n  def forward(self: __torch__.Net,\n    x: Tensor) -> Tuple[Tensor, Tensor]:\n    return (x, x)\n';

function ranged(bytes: Uint8Array): { fetch: (p: number, l: number) => Promise<Uint8Array>; reads: [number, number][] } {
  const reads: [number, number][] = [];
  return { reads, fetch: async (p, l) => (reads.push([p, l]), bytes.subarray(p, p + l)) };
}

describe('readTorchSignatureFrom (ranged reads)', () => {
  it('reads what the file read gives, in one read for a small archive', async () => {
    const r = ranged(QA);
    expect(await readTorchSignatureFrom('m.pt', QA.length, r.fetch)).toEqual(readTorchSignatureOfBytes('m.pt', QA));
    expect(r.reads).toEqual([[0, QA.length]]);
  });

  it('never reads the weights: 64 MiB under data/ cost a few small reads', async () => {
    const zip = torchscriptZip(CODE, { weights: [64 * 1024 * 1024], deflate: true });
    const r = ranged(zip);
    const sig = await readTorchSignatureFrom('m.pt', zip.length, r.fetch);
    expect(sig.initializers.bytes).toBe(64 * 1024 * 1024);
    expect(sig.outputs.length).toBe(2);
    expect(r.reads.length).toBeLessThanOrEqual(4);
    expect(r.reads.reduce((n, [, l]) => n + l, 0)).toBeLessThan(512 * 1024);
  });
});

describe('a mounted repository reads model.pt from the store', () => {
  it('lint facts: the signature is fetched by ranges and kept', async () => {
    const objects: Record<string, Uint8Array> = { 'prod/m/config.pbtxt': new TextEncoder().encode('backend: "pytorch"\n'), 'prod/m/1/model.pt': QA };
    const store: ObjectStore = {
      list: async (prefix) =>
        Object.keys(objects)
          .filter((k) => k.startsWith(prefix))
          .map((key) => ({ key, size: objects[key]!.byteLength })),
      read: async (key, start, length) => objects[key]!.subarray(start, start + length),
      get: async (key) => objects[key]!,
    };
    const loc = parseRemoteUrl('s3://models/prod');
    const m = await MountedRepository.open(loc, loc.url, '/stand-in/prod', { env: {}, readFile: () => '', store: async () => store });
    expect(m.signature('/stand-in/prod/m/1/model.pt', 'pytorch').error?.reason).toBe('not fetched yet');
    await m.fetchPending();
    const sig = m.signature('/stand-in/prod/m/1/model.pt', 'pytorch').signature!;
    expect(sig.format).toBe('torchscript');
    expect(sig.inputs.map((t) => t.name)).toEqual(['image', 'scale']);
  });
});
