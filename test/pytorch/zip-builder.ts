// A minimal ZIP writer for the reader's error and fuzz tests: stored or deflated entries, optionally
// with zip64 records, and a hook to lie about sizes. The fixtures themselves are real torch exports.
import zlib from 'node:zlib';

export interface BuildEntry {
  name: string;
  data: Uint8Array | string;
  deflate?: boolean;
  /** Declared sizes written in place of the true ones (a lie). */
  declaredUncompressed?: number;
  declaredCompressed?: number;
}

export function buildZip(entries: BuildEntry[], options: { zip64?: boolean } = {}): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const raw = Buffer.from(typeof e.data === 'string' ? Buffer.from(e.data) : e.data);
    const body = e.deflate ? zlib.deflateRawSync(raw) : raw;
    const name = Buffer.from(e.name);
    const usize = e.declaredUncompressed ?? raw.length;
    const csize = e.declaredCompressed ?? body.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(e.deflate ? 8 : 0, 8);
    local.writeUInt32LE(Math.min(csize, 0xffffffff), 18);
    local.writeUInt32LE(Math.min(usize, 0xffffffff), 22);
    local.writeUInt16LE(name.length, 26);
    parts.push(local, name, body);
    const z64 = options.zip64;
    const extra = z64 ? Buffer.alloc(28) : Buffer.alloc(0);
    if (z64) {
      extra.writeUInt16LE(1, 0);
      extra.writeUInt16LE(24, 2);
      extra.writeBigUInt64LE(BigInt(usize), 4);
      extra.writeBigUInt64LE(BigInt(csize), 12);
      extra.writeBigUInt64LE(BigInt(offset), 20);
    }
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE(45, 4);
    c.writeUInt16LE(45, 6);
    c.writeUInt16LE(e.deflate ? 8 : 0, 10);
    c.writeUInt32LE(z64 ? 0xffffffff : csize, 20);
    c.writeUInt32LE(z64 ? 0xffffffff : usize, 24);
    c.writeUInt16LE(name.length, 28);
    c.writeUInt16LE(extra.length, 30);
    c.writeUInt32LE(z64 ? 0xffffffff : offset, 42);
    central.push(c, name, extra);
    offset += local.length + name.length + body.length;
  }
  const cd = Buffer.concat(central);
  const tail: Buffer[] = [];
  if (options.zip64) {
    const z = Buffer.alloc(56);
    z.writeUInt32LE(0x06064b50, 0);
    z.writeBigUInt64LE(44n, 4);
    z.writeUInt16LE(45, 12);
    z.writeUInt16LE(45, 14);
    z.writeBigUInt64LE(BigInt(entries.length), 24);
    z.writeBigUInt64LE(BigInt(entries.length), 32);
    z.writeBigUInt64LE(BigInt(cd.length), 40);
    z.writeBigUInt64LE(BigInt(offset), 48);
    const loc = Buffer.alloc(20);
    loc.writeUInt32LE(0x07064b50, 0);
    loc.writeBigUInt64LE(BigInt(offset + cd.length), 8);
    loc.writeUInt32LE(1, 16);
    tail.push(z, loc);
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(options.zip64 ? 0xffff : entries.length, 8);
  end.writeUInt16LE(options.zip64 ? 0xffff : entries.length, 10);
  end.writeUInt32LE(options.zip64 ? 0xffffffff : cd.length, 12);
  end.writeUInt32LE(options.zip64 ? 0xffffffff : offset, 16);
  return Buffer.concat([...parts, cd, ...tail, end]);
}

/** A TorchScript-shaped archive: data.pkl naming `__torch__.<cls>`, its code, and weights under data/. */
export function torchscriptZip(code: string, options: { cls?: string; weights?: number[]; deflate?: boolean; zip64?: boolean } = {}): Buffer {
  const cls = options.cls ?? 'Net';
  const pkl = Buffer.concat([Buffer.from([0x80, 0x02]), Buffer.from(`c__torch__\n${cls}\n`), Buffer.from('q\x00)\x81}(X')]);
  return buildZip(
    [
      { name: 'model/data.pkl', data: pkl },
      { name: 'model/code/__torch__.py', data: code, deflate: options.deflate ?? true },
      ...(options.weights ?? []).map((n, i) => ({ name: `model/data/${i}`, data: Buffer.alloc(n) })),
      { name: 'model/version', data: '3\n' },
    ],
    { zip64: options.zip64 },
  );
}
