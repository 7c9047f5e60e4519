import { type PdfValue, readObject } from "../guards/pdf-object.ts";
import type { PagesNode } from "../guards/pdf-syntax.ts";

/** What the PDF guard's scan (src/engine/guards/pdf.ts) saw of the page tree, for balancing a flat one. */
export interface PageTreeFacts {
  /** Object numbers of `/Type /Page` dictionaries. */
  pageObjects: number[];
  pagesNodes: PagesNode[];
  /** False when the scan could not see every object (locked encryption, capped lists). */
  complete: boolean;
  encrypted: boolean;
}

/**
 * pdf.js looks a page up by walking the page tree from the root on every getPage, testing each
 * kid before it (upstream declined to trust /Count: mozilla/pdf.js#20359), and its open fetches
 * the last page the same way. A flat tree, every page a kid of one /Pages node as pdf-lib, qpdf
 * and many report generators write it, so costs O(pages) per page: on a 2,000-page statement that
 * was a quarter of the extraction time and half a second of the open.
 *
 * pageTreeUpdate builds an incremental update (ISO 32000-1, 7.5.6) that re-parents the kids of
 * such a node under intermediate /Pages nodes of at most FANOUT kids each. The page objects and
 * everything else stay as they are; a page still inherits from its own /Parent, which keeps its
 * attributes. The update is appended only to the copy pdf.js reads, never to what is returned.
 */

/** Kids per intermediate node: a lookup then tests about pages / FANOUT + FANOUT kids. */
const FANOUT = 64;
/** Nodes with fewer kids than this cost pdf.js too little to be worth an update. */
const BALANCE_ABOVE = 256;
const MAX_OBJECTS = 8_388_607;

export interface Trailer {
  /** Offset of the newest cross-reference section (the update's /Prev). */
  prev: number;
  size: number;
  /** The entries a newest trailer must repeat for readers: /Root, /Info, /ID, /Encrypt. */
  keep: [string, PdfValue][];
}

/** Bytes to append to `bytes`, or undefined when there is nothing to balance or any doubt. */
export function pageTreeUpdate(bytes: Uint8Array, facts: PageTreeFacts): Uint8Array | undefined {
  if (!facts.complete) return undefined;
  const wide = facts.pagesNodes.filter((n) => n.kids.length / 2 > BALANCE_ABOVE);
  if (wide.length === 0) return undefined;
  // A node defined twice (an incremental update rewrote the tree) could be read either way.
  const seen = new Set<number>();
  for (const node of facts.pagesNodes) {
    if (seen.has(node.num)) return undefined;
    seen.add(node.num);
  }
  const pages = new Set(facts.pageObjects);
  const nodes = wide.filter((n) => balanceable(n, pages, seen, facts.encrypted));
  if (nodes.length === 0) return undefined;
  const trailer = readTrailer(bytes);
  if (!trailer) return undefined;

  // New objects take numbers no object has: past /Size, and past anything the scan saw.
  let next = trailer.size;
  for (const num of facts.pageObjects) next = Math.max(next, num + 1);
  for (const node of facts.pagesNodes) next = Math.max(next, node.num + 1);
  const objects: { num: number; gen: number; body: string }[] = [];
  for (const node of nodes) {
    const top = balancedKids(
      node,
      () => next++,
      (num, body) => objects.push({ num, gen: 0, body }),
    );
    const dict = Buffer.from(node.dict).toString("latin1");
    objects.push({ num: node.num, gen: node.gen, body: dict.slice(0, node.kidsAt[0]) + `[${top}]` + dict.slice(node.kidsAt[1]) });
  }
  return serialise(bytes.length, objects, trailer, next);
}

/** Every kid a distinct page object, and /Count says exactly that many pages. */
function balanceable(node: PagesNode, pages: Set<number>, pagesNodes: Set<number>, encrypted: boolean): boolean {
  const count = node.kids.length / 2;
  if (node.count !== count) return false;
  const kids = new Set<number>();
  for (let k = 0; k < node.kids.length; k += 2) {
    const num = node.kids[k]!;
    if (!pages.has(num) || pagesNodes.has(num) || kids.has(num)) return false;
    kids.add(num);
  }
  // Written out again as a plain object, an encrypted file's strings would be decrypted with
  // this object's key, which they may never have been encrypted with (object streams).
  return !(encrypted && hasString(node.dict));
}

type Kid = { ref: string; count: number; children?: Kid[] };

/**
 * Groups the node's kids FANOUT at a time, level over level until the node itself has at most
 * FANOUT kids (more than FANOUT² pages take a third level), writes each new node through `write`
 * and returns the node's new /Kids.
 */
function balancedKids(node: PagesNode, alloc: () => number, write: (num: number, body: string) => void): string {
  let level: Kid[] = [];
  for (let k = 0; k < node.kids.length; k += 2) level.push({ ref: `${node.kids[k]} ${node.kids[k + 1]} R`, count: 1 });
  while (level.length > FANOUT) {
    const up: Kid[] = [];
    for (let k = 0; k < level.length; k += FANOUT) {
      const children = level.slice(k, k + FANOUT);
      up.push({ ref: "", count: children.reduce((sum, c) => sum + c.count, 0), children });
    }
    level = up;
  }
  const emit = (kids: Kid[], parent: string): string =>
    kids
      .map((kid) => {
        if (!kid.children) return kid.ref;
        // Numbered before its children are written, so they can name it as their /Parent.
        const num = alloc();
        const ref = `${num} 0 R`;
        write(num, `<</Type/Pages/Parent ${parent}/Count ${kid.count}/Kids[${emit(kid.children, ref)}]>>`);
        return ref;
      })
      .join(" ");
  return emit(level, `${node.num} ${node.gen} R`);
}

function hasString(dict: Uint8Array): boolean {
  for (let k = 0; k < dict.length; k++) {
    const c = dict[k]!;
    if (c === 0x28) return true;
    if (c === 0x3c && dict[k + 1] !== 0x3c && dict[k - 1] !== 0x3c) return true;
  }
  return false;
}

/** The newest trailer: after `xref ... trailer`, or the dictionary of a cross-reference stream. */
export function readTrailer(bytes: Uint8Array): Trailer | undefined {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = buf.lastIndexOf("startxref");
  if (at < 0) return undefined;
  const offset = readObject(bytes, at + "startxref".length);
  if (offset?.t !== "num" || !Number.isInteger(offset.v) || offset.v < 0 || offset.v >= at) return undefined;
  const prev = offset.v;
  let dictAt: number;
  if (buf.toString("latin1", prev, prev + 4) === "xref") {
    const t = buf.indexOf("trailer", prev);
    if (t < 0) return undefined;
    dictAt = t + "trailer".length;
  } else {
    const header = /^\s*\d+\s+\d+\s+obj/.exec(buf.toString("latin1", prev, prev + 32));
    if (!header) return undefined;
    dictAt = prev + header[0].length;
  }
  const dict = readObject(bytes, dictAt);
  if (dict?.t !== "dict") return undefined;
  const size = dict.v.get("Size");
  const root = dict.v.get("Root");
  // 8,388,607 indirect objects is the PDF limit (ISO 32000-1, C.2): past it the file is not one we number after.
  if (size?.t !== "num" || !Number.isInteger(size.v) || size.v < 1 || size.v > MAX_OBJECTS || root?.t !== "ref") return undefined;
  const keep: [string, PdfValue][] = [];
  for (const key of ["Root", "Info", "ID", "Encrypt"]) {
    const v = dict.v.get(key);
    if (v) keep.push([key, v]);
  }
  return { prev, size: size.v, keep };
}

export function serialise(base: number, objects: { num: number; gen: number; body: string }[], trailer: Trailer, size: number): Uint8Array {
  let text = "\n";
  const offsets = new Map<number, { at: number; gen: number }>();
  for (const o of objects) {
    offsets.set(o.num, { at: base + Buffer.byteLength(text, "latin1"), gen: o.gen });
    text += `${o.num} ${o.gen} obj\n${o.body}\nendobj\n`;
  }
  const xrefAt = base + Buffer.byteLength(text, "latin1");
  text += "xref\n";
  // One subsection per object keeps this simple; readers accept any number of them.
  for (const [num, { at, gen }] of [...offsets].sort((a, b) => a[0] - b[0])) {
    text += `${num} 1\n${String(at).padStart(10, "0")} ${String(gen).padStart(5, "0")} n\r\n`;
  }
  const entries = trailer.keep.map(([k, v]) => `/${k} ${formatValue(v)}`).join("");
  text += `trailer\n<</Size ${size}${entries}/Prev ${trailer.prev}>>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(text, "latin1"));
}

export function formatValue(v: PdfValue): string {
  switch (v.t) {
    case "num":
      return String(v.v);
    case "name":
      return "/" + v.v.replace(/[^!-~]|[()<>[\]{}/%#]/g, (c) => "#" + c.charCodeAt(0).toString(16).padStart(2, "0"));
    case "str":
      return `<${Buffer.from(v.v).toString("hex")}>`;
    case "bool":
      return String(v.v);
    case "null":
      return "null";
    case "ref":
      return `${v.num} ${v.gen} R`;
    case "array":
      return `[${v.v.map(formatValue).join(" ")}]`;
    case "dict":
      return `<<${[...v.v].map(([k, x]) => `${formatValue({ t: "name", v: k })} ${formatValue(x)}`).join("")}>>`;
  }
}

/** `bytes` followed by `update` (if any) in a new buffer: the upload stays untouched. */
export function withUpdate(bytes: Uint8Array, update: Uint8Array | undefined): Uint8Array {
  const out = new Uint8Array(bytes.length + (update?.length ?? 0));
  out.set(bytes);
  if (update) out.set(update, bytes.length);
  return out;
}
