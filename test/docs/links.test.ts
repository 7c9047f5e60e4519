/**
 * Every relative link in README.md and docs/*.md resolves: the file exists, and a `#anchor` names
 * a heading of the target page (GitHub's heading ids: lower-cased, punctuation dropped, spaces to
 * hyphens, repeats numbered -1, -2…). Links inside code are not links and are skipped.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");
const PAGES = [join(ROOT, "README.md"), ...readdirSync(join(ROOT, "docs")).filter((n) => n.endsWith(".md")).map((n) => join(ROOT, "docs", n))];

/** The page's lines outside fenced code blocks, with inline code spans blanked. */
function prose(text: string): string[] {
  let fenced = false;
  return text.split("\n").flatMap((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return [];
    }
    return fenced ? [] : [line.replace(/`[^`]*`/g, (code) => " ".repeat(code.length))];
  });
}

/** GitHub's id for a heading's text. */
export function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replaceAll("`", "")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "")
    .replaceAll(" ", "-");
}

/** The ids of a page's headings (outside code), repeats numbered as GitHub does. */
export function anchors(text: string): Set<string> {
  let fenced = false;
  const seen = new Map<string, number>();
  const ids = new Set<string>();
  for (const line of text.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const m = fenced ? null : /^#{1,6} (.+)$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    ids.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const m of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) ids.add(m[1]!);
  return ids;
}

/** Relative link targets of a page: inline links and images, and reference definitions. */
function links(text: string): string[] {
  const found: string[] = [];
  for (const line of prose(text)) {
    for (const m of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) found.push(m[1]!);
    const def = /^\s{0,3}\[[^\]]+\]:\s*(\S+)/.exec(line);
    if (def) found.push(def[1]!);
  }
  return found.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

function broken(page: string): string[] {
  const problems: string[] = [];
  for (const target of links(readFileSync(page, "utf8"))) {
    const [path = "", anchor] = target.split("#", 2);
    const file = path === "" ? page : resolve(dirname(page), decodeURIComponent(path));
    if (!existsSync(file)) {
      problems.push(`${target}: no such file`);
      continue;
    }
    if (anchor === undefined || anchor === "") continue;
    if (statSync(file).isDirectory() || !file.endsWith(".md")) {
      problems.push(`${target}: an anchor into a file that is not Markdown`);
      continue;
    }
    if (!anchors(readFileSync(file, "utf8")).has(decodeURIComponent(anchor))) problems.push(`${target}: no heading #${anchor} in ${relative(ROOT, file)}`);
  }
  return problems;
}

describe("documentation links", () => {
  test("README.md and the docs/ pages are all there", () => {
    expect(PAGES.map((p) => relative(ROOT, p))).toEqual(expect.arrayContaining(["README.md", "docs/api.md", "docs/errors.md", "docs/engine.md", "docs/operations.md", "docs/benchmarks.md"]));
  });

  for (const page of PAGES) {
    test(`${relative(ROOT, page)}: every relative link and #anchor resolves`, () => {
      expect(links(readFileSync(page, "utf8")).length).toBeGreaterThan(0);
      expect(broken(page)).toEqual([]);
    });
  }

  test("the checker catches a missing file and a missing anchor", () => {
    const text = "# Title\n\n## Two words\n\n## Two words\n\n[a](#two-words-1) [b](#nope) [c](no-such-file.md)\n\n```\n[d](#in-code)\n```\n";
    expect([...anchors(text)]).toEqual(["title", "two-words", "two-words-1"]);
    expect(links(text)).toEqual(["#two-words-1", "#nope", "no-such-file.md"]);
    expect(slug("PDF text extraction: PDFium and pdf.js")).toBe("pdf-text-extraction-pdfium-and-pdfjs");
    expect(slug("What `npm test` needs")).toBe("what-npm-test-needs");
  });
});
