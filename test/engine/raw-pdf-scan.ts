/**
 * A raw scan of a PDF file that trusts no PDF library: the file's bytes, every stream inflated
 * (object streams included, so objects packed in them are seen), hex strings decoded (UTF-16 with
 * a BOM too), literal-string escapes and percent-encoding decoded, all as one latin-1 text to
 * search for leaks.
 */
import { inflateSync } from "node:zlib";

const latin1 = (b: Uint8Array) => new TextDecoder("latin1").decode(b);

function inflatedStreams(file: string, bytes: Uint8Array): string[] {
  const out: string[] = [];
  const re = /(?<!end)stream\r?\n/g;
  for (let m = re.exec(file); m; m = re.exec(file)) {
    const start = m.index + m[0].length;
    const end = file.indexOf("endstream", start);
    if (end < 0) break;
    try {
      out.push(latin1(inflateSync(bytes.subarray(start, end), { finishFlush: 2 })));
    } catch {
      // Not deflated (or damaged): its raw bytes are in the file text already.
    }
    re.lastIndex = end;
  }
  return out;
}

function decodedStrings(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/<([0-9A-Fa-f\s]{2,})>/g)) {
    const hex = m[1]!.replace(/\s/g, "");
    const bytes = Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16));
    out.push(bytes[0] === 0xfe && bytes[1] === 0xff ? new TextDecoder("utf-16be").decode(bytes.subarray(2)) : latin1(bytes));
  }
  out.push(text.replace(/\\([0-7]{1,3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8))).replace(/\\(.)/g, "$1"));
  return out;
}

export function rawPdfText(bytes: Uint8Array): string {
  const file = latin1(bytes);
  const texts = [file, ...inflatedStreams(file, bytes)];
  const all = [...texts, ...texts.flatMap(decodedStrings)].join("\n");
  // And once more with percent-encoding decoded (a link's URI can spell digits as %32%30…).
  return `${all}\n${all.replace(/%([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))}`;
}
