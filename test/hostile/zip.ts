/**
 * A minimal zip writer for the hostile-file generator: it writes exactly what it is told, including
 * sizes and CRCs that lie, which no well-behaved zip library would let a test do.
 */
import { deflateRawSync } from "node:zlib";

export interface ZipEntry {
  name: string;
  /** Stored (method 0) or already-deflated (method 8) bytes as they go into the archive. */
  data: Uint8Array;
  method: 0 | 8;
  /** Size once inflated, as declared in the headers (may lie). */
  uncompressedSize: number;
  crc: number;
}

const crc32 = (b: Uint8Array): number => Bun.hash.crc32(b) >>> 0;

/** An honest deflated entry. */
export function deflatedEntry(name: string, content: string | Uint8Array): ZipEntry {
  const raw = typeof content === "string" ? new TextEncoder().encode(content) : content;
  return { name, data: new Uint8Array(deflateRawSync(raw)), method: 8, uncompressedSize: raw.length, crc: crc32(raw) };
}

export function storedEntry(name: string, content: string | Uint8Array): ZipEntry {
  const raw = typeof content === "string" ? new TextEncoder().encode(content) : content;
  return { name, data: raw, method: 0, uncompressedSize: raw.length, crc: crc32(raw) };
}

export function writeZip(entries: ZipEntry[]): Uint8Array {
  const enc = new TextEncoder();
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = enc.encode(e.name);
    const local = new Uint8Array(30 + name.length);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(4, 20, true);
    lv.setUint16(8, e.method, true);
    lv.setUint32(14, e.crc, true);
    lv.setUint32(18, e.data.length, true);
    lv.setUint32(22, e.uncompressedSize >>> 0, true);
    lv.setUint16(26, name.length, true);
    local.set(name, 30);
    const central = new Uint8Array(46 + name.length);
    const cv = new DataView(central.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(4, 20, true);
    cv.setUint16(6, 20, true);
    cv.setUint16(10, e.method, true);
    cv.setUint32(16, e.crc, true);
    cv.setUint32(20, e.data.length, true);
    cv.setUint32(24, e.uncompressedSize >>> 0, true);
    cv.setUint16(28, name.length, true);
    cv.setUint32(42, offset, true);
    central.set(name, 46);
    locals.push(local, e.data);
    centrals.push(central);
    offset += local.length + e.data.length;
  }
  const cdSize = centrals.reduce((n, c) => n + c.length, 0);
  const end = new Uint8Array(22);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, entries.length, true);
  ev.setUint16(10, entries.length, true);
  ev.setUint32(12, cdSize, true);
  ev.setUint32(16, offset, true);
  return concat([...locals, ...centrals, end]);
}

export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
