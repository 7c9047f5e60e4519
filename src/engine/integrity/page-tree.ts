import type { PdfValue } from "../guards/pdf-object.ts";
import { dictOf, nameOf, type ObjectIndex } from "./objects.ts";

/** A page as the raw structure describes it, in page order. */
export interface RawPage {
  /** 1-based page number. */
  number: number;
  /** Object number of the /Page dictionary. */
  num: number;
  /** Object numbers of its content streams, in drawing order. */
  contents: number[];
  /** Its resource dictionary (inherited from the page tree when not its own). */
  resources: Map<string, PdfValue> | undefined;
}

/** Pages followed at most this deep in the tree; real trees are a few levels. */
const MAX_TREE_DEPTH = 64;

/** Pages in order, walking /Kids from the catalog's /Pages; loops and bad kids are skipped. */
export function rawPages(index: ObjectIndex, maxPages: number): RawPage[] {
  const out: RawPage[] = [];
  if (index.root === undefined) return out;
  const seen = new Set<number>();
  const walk = (num: number, inherited: Map<string, PdfValue> | undefined, depth: number) => {
    if (depth > MAX_TREE_DEPTH || seen.has(num) || out.length >= maxPages) return;
    seen.add(num);
    const dict = dictOf(index.value(num));
    if (!dict) return;
    const resources = dictOf(index.resolve(dict.get("Resources"))) ?? inherited;
    const kids = index.resolve(dict.get("Kids"));
    if (nameOf(dict.get("Type")) !== "Page" && kids?.t === "array") {
      for (const kid of kids.v) if (kid.t === "ref") walk(kid.num, resources, depth + 1);
      return;
    }
    out.push({ number: out.length + 1, num, contents: contentRefs(index, dict.get("Contents")), resources });
  };
  walk(index.root, undefined, 0);
  return out;
}

function contentRefs(index: ObjectIndex, contents: PdfValue | undefined): number[] {
  if (contents?.t === "ref") {
    const v = index.value(contents.num);
    // /Contents may point at an array object of streams rather than at one stream.
    if (v?.t === "array") return v.v.flatMap((c) => (c.t === "ref" ? [c.num] : []));
    return [contents.num];
  }
  if (contents?.t === "array") return contents.v.flatMap((c) => (c.t === "ref" ? [c.num] : []));
  return [];
}

/** Form XObjects nested deeper than this are not searched for fonts. */
const MAX_FORM_DEPTH = 3;

/** Names already read, per font object and per form XObject, shared by every page of a document. */
export interface FontMemo {
  fonts: Map<number, string>;
  forms: Map<number, string[]>;
}
export const fontMemo = (): FontMemo => ({ fonts: new Map(), forms: new Map() });

/**
 * Base font names a resource dictionary makes available (its fonts and its forms' fonts), subset
 * prefixes ("ABCDEF+") removed.
 */
export function resourceFonts(index: ObjectIndex, resources: Map<string, PdfValue> | undefined, memo: FontMemo, depth = 0): string[] {
  if (!resources) return [];
  const names = new Set<string>();
  const fonts = dictOf(index.resolve(resources.get("Font")));
  for (const [key, ref] of fonts ?? []) {
    const known = ref.t === "ref" ? memo.fonts.get(ref.num) : undefined;
    if (known !== undefined) {
      names.add(known);
      continue;
    }
    const font = dictOf(index.resolve(ref));
    const base = nameOf(font?.get("BaseFont"));
    const name = base ? base.replace(/^[A-Z]{6}\+/, "") : `${nameOf(font?.get("Subtype")) ?? "Font"} ${key}`;
    if (ref.t === "ref") memo.fonts.set(ref.num, name);
    names.add(name);
  }
  if (depth < MAX_FORM_DEPTH) {
    const xobjects = dictOf(index.resolve(resources.get("XObject")));
    for (const [, ref] of xobjects ?? []) {
      if (ref.t !== "ref") continue;
      let list = memo.forms.get(ref.num);
      if (!list) {
        memo.forms.set(ref.num, []); // a form drawing itself stops here
        const form = dictOf(index.value(ref.num));
        list = nameOf(form?.get("Subtype")) === "Form" ? resourceFonts(index, dictOf(index.resolve(form?.get("Resources"))), memo, depth + 1) : [];
        memo.forms.set(ref.num, list);
      }
      for (const n of list) names.add(n);
    }
  }
  return [...names].sort();
}
