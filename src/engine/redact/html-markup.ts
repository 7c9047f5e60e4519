/**
 * A linear scanner over HTML markup for redaction: splits a document into text, tags, and the
 * parts that are dropped outright (comments, `<script>`/`<style>` elements, including Excel's
 * conditional-comment XML blocks). Each character is looked at a bounded number of times, so a
 * hostile document ("<a<a<a…", "<!--" without its end) costs time in proportion to its length.
 */

export type Piece =
  | { kind: "text"; raw: string }
  | { kind: "tag"; raw: string }
  /** A comment, script or style element: removed from the copy. */
  | { kind: "dropped"; raw: string };

const isNameStart = (c: string | undefined) => c !== undefined && /[A-Za-z]/.test(c);

/** The index just past the `>` closing the tag that opens at `start`, quotes respected, or -1. */
function tagEnd(html: string, start: number): number {
  let quote: string | undefined;
  let lastNonSpace = "";
  for (let i = start + 1; i < html.length; i++) {
    const c = html[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      continue;
    }
    // A quote opens a value only after '='; elsewhere it is a stray character.
    if ((c === '"' || c === "'") && lastNonSpace === "=") quote = c;
    else if (c === ">") return i + 1;
    else if (c === "<") return -1;
    if (!/\s/.test(c)) lastNonSpace = c;
  }
  return -1;
}

/** The element name of a tag's text (`<td class=…>` → "td", `</TD>` → "td"). */
export const tagName = (raw: string): string => /^<\/?([A-Za-z][\w:-]*)/.exec(raw)?.[1]?.toLowerCase() ?? "";

export function scanHtml(html: string): Piece[] {
  const pieces: Piece[] = [];
  let lower: string | undefined;
  let text = 0;
  let i = 0;
  const flushText = (end: number) => {
    if (end > text) pieces.push({ kind: "text", raw: html.slice(text, end) });
  };
  while (i < html.length) {
    const lt = html.indexOf("<", i);
    if (lt === -1) break;
    if (html.startsWith("<!--", lt)) {
      const close = html.indexOf("-->", lt + 4);
      const end = close === -1 ? html.length : close + 3;
      flushText(lt);
      pieces.push({ kind: "dropped", raw: html.slice(lt, end) });
      text = i = end;
      continue;
    }
    const next = html[lt + 1];
    if (!isNameStart(next) && next !== "/" && next !== "!" && next !== "?") {
      i = lt + 1; // a '<' that opens no tag is text
      continue;
    }
    const end = tagEnd(html, lt);
    if (end === -1) {
      i = lt + 1; // no '>' before the next '<': text, as browsers read it
      continue;
    }
    const raw = html.slice(lt, end);
    const name = tagName(raw);
    flushText(lt);
    if ((name === "script" || name === "style") && !raw.startsWith("</")) {
      // The element's raw text runs to its end tag (or the end of the document).
      lower ??= html.toLowerCase();
      const close = lower.indexOf(`</${name}`, end);
      const closeEnd = close === -1 ? html.length : (() => {
        const gt = html.indexOf(">", close);
        return gt === -1 ? html.length : gt + 1;
      })();
      pieces.push({ kind: "dropped", raw: html.slice(lt, closeEnd) });
      text = i = closeEnd;
      continue;
    }
    pieces.push({ kind: "tag", raw });
    text = i = end;
  }
  flushText(html.length);
  return pieces;
}

/**
 * A tag with each attribute value (`="v"`, `='v'` or `=v`) passed through `rewrite`, which gets
 * the raw value and returns its replacement text (already escaped for a double-quoted value) or
 * undefined to keep it as written.
 */
export function mapAttributeValues(tag: string, rewrite: (raw: string) => string | undefined): string {
  // Separators are bounded and a quoted value ends at its quote, so each '=' is read once.
  return tag.replace(/=[ \t\r\n]{0,16}(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/g, (whole, dq: string | undefined, sq: string | undefined, bare: string | undefined) => {
    const next = rewrite(dq ?? sq ?? bare ?? "");
    return next === undefined ? whole : `="${next}"`;
  });
}
