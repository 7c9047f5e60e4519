import type { PdfValue } from "../guards/pdf-object.ts";
import { dictOf, nameOf, type ObjectIndex } from "./objects.ts";

/**
 * Pages as the raw structure describes them, read with a few patterns over each page object's own
 * text rather than the bounded object reader: page dictionaries can carry thousands of resource
 * entries (pdf-lib adds one per drawText), and a 2,000-page document must stay cheap to read.
 */

/** The resources a page (or form) draws with: font objects, and XObject objects by resource name. */
export interface Resources {
  fonts: number[];
  xobjects: Map<string, number>;
}

export interface RawPage {
  /** 1-based page number. */
  number: number;
  /** Object number of the /Page dictionary. */
  num: number;
  /** Object numbers of its content streams, in drawing order. */
  contents: number[];
  resources: Resources;
}

/** Pages followed at most this deep in the tree; real trees are a few levels. */
const MAX_TREE_DEPTH = 64;
/** Bytes of one page-tree object read (a flat /Kids of 100,000 pages is ~1.2 MB). */
const MAX_NODE_BYTES = 16 * 1024 * 1024;

const REFS = /(\d+)\s+\d+\s+R/g;
const refsIn = (text: string): number[] => [...text.matchAll(REFS)].map((m) => Number(m[1]));
const NO_RESOURCES: Resources = { fonts: [], xobjects: new Map() };
const NAMED_REF = /\/([^\s/<>[\]()]+)\s+(\d+)\s+\d+\s+R/g;

/** Pages in order, walking /Kids from the catalog's /Pages; loops and unreadable nodes are skipped. */
export function rawPages(index: ObjectIndex, maxPages: number): RawPage[] {
  const out: RawPage[] = [];
  if (index.root === undefined) return out;
  const seen = new Set<number>();
  const shared = new Map<number, Resources>();
  const walk = (num: number, inherited: Resources, depth: number) => {
    if (depth > MAX_TREE_DEPTH || seen.has(num) || out.length >= maxPages) return;
    seen.add(num);
    const text = index.text(num, MAX_NODE_BYTES);
    if (text === undefined) return;
    const resources = resourcesOf(index, text, shared) ?? inherited;
    if (/\/Type\s*\/Pages\b/.test(text)) {
      const kids = /\/Kids\s*\[([^\]]*)\]/.exec(text)?.[1];
      for (const kid of kids ? refsIn(kids) : []) walk(kid, resources, depth + 1);
      return;
    }
    if (!/\/Type\s*\/Page\b/.test(text)) return;
    out.push({ number: out.length + 1, num, contents: contentsOf(index, text), resources });
  };
  walk(index.root, NO_RESOURCES, 0);
  return out;
}

function contentsOf(index: ObjectIndex, text: string): number[] {
  const m = /\/Contents\s*(?:(\d+)\s+\d+\s+R|\[([^\]]*)\])/.exec(text);
  if (!m) return [];
  if (m[2] !== undefined) return refsIn(m[2]);
  const num = Number(m[1]);
  // /Contents may point at an array object of streams rather than at one stream.
  const v = index.value(num);
  return v?.t === "array" ? v.v.flatMap((c) => (c.t === "ref" ? [c.num] : [])) : [num];
}

/**
 * A dictionary's /Resources: inline (its /Font and /XObject subdictionaries hold only references,
 * so a pattern finds them) or a shared resource object (read once).
 */
function resourcesOf(index: ObjectIndex, text: string, shared: Map<number, Resources>): Resources | undefined {
  const ref = /\/Resources\s*(\d+)\s+\d+\s+R/.exec(text);
  if (ref) {
    const num = Number(ref[1]);
    let r = shared.get(num);
    if (!r) {
      r = fromDict(index, dictOf(index.value(num)));
      shared.set(num, r);
    }
    return r;
  }
  const at = text.search(/\/Resources\s*<</);
  if (at < 0) return undefined;
  const body = text.slice(at);
  return { fonts: [...subRefs(index, body, "Font").values()], xobjects: subRefs(index, body, "XObject") };
}

/** A subdictionary's name → object entries, inline (a pattern reads them) or in an object of its own. */
function subRefs(index: ObjectIndex, body: string, key: string): Map<string, number> {
  const m = new RegExp(`/${key}\\s*(?:(\\d+)\\s+\\d+\\s+R|<<([^>]*)>>)`).exec(body);
  if (!m) return new Map();
  if (m[2] !== undefined) return new Map([...m[2].matchAll(NAMED_REF)].map((r) => [r[1]!, Number(r[2])]));
  return refEntries(dictOf(index.value(Number(m[1]))));
}

const refEntries = (d: Map<string, PdfValue> | undefined): Map<string, number> =>
  new Map([...(d ?? [])].flatMap(([k, v]) => (v.t === "ref" ? [[k, v.num] as [string, number]] : [])));

export function fromDict(index: ObjectIndex, d: Map<string, PdfValue> | undefined): Resources {
  return { fonts: [...refEntries(dictOf(index.resolve(d?.get("Font")))).values()], xobjects: refEntries(dictOf(index.resolve(d?.get("XObject")))) };
}

/** Form XObjects nested deeper than this are not searched for fonts. */
const MAX_FORM_DEPTH = 3;

/** Names already read, per font object and per form XObject, shared by every page of a document. */
export interface FontMemo {
  fonts: Map<number, string>;
  forms: Map<number, string[]>;
}
export const fontMemo = (): FontMemo => ({ fonts: new Map(), forms: new Map() });

/** Base font names the resources make available (their forms' too), subset prefixes ("ABCDEF+") removed. */
export function resourceFonts(index: ObjectIndex, resources: Resources, memo: FontMemo, depth = 0): string[] {
  const names = new Set<string>();
  for (const num of resources.fonts) {
    let name = memo.fonts.get(num);
    if (name === undefined) {
      const font = dictOf(index.value(num));
      const base = nameOf(font?.get("BaseFont"));
      name = base ? base.replace(/^[A-Z]{6}\+/, "") : `${nameOf(font?.get("Subtype")) ?? "Font"} ${num}`;
      memo.fonts.set(num, name);
    }
    names.add(name);
  }
  if (depth < MAX_FORM_DEPTH) {
    for (const num of resources.xobjects.values()) {
      let list = memo.forms.get(num);
      if (!list) {
        memo.forms.set(num, []); // a form drawing itself stops here
        const form = dictOf(index.value(num));
        list = nameOf(form?.get("Subtype")) === "Form" ? resourceFonts(index, fromDict(index, dictOf(index.resolve(form?.get("Resources")))), memo, depth + 1) : [];
        memo.forms.set(num, list);
      }
      for (const n of list) names.add(n);
    }
  }
  return [...names].sort();
}
