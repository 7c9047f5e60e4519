/**
 * Regenerates the producer corpus: writes each statement as HTML, flat ODS or groff/tbl source and
 * converts it with the real tool (Chromium, wkhtmltopdf, LibreOffice, groff + ghostscript). The
 * tools are needed only here; the tests read the committed files.
 *
 *   npx bun test/engine/producers/generate.ts [name ...]
 *
 * Needs: /usr/bin/chromium, wkhtmltopdf, soffice (libreoffice-calc-nogui, libreoffice-writer-nogui),
 * groff, ps2pdf (ghostscript).
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ColumnKind, type DocSpec, expectedJson, expectedOf, makeStatement, printDate, printMoney, printPeriod, printTime, type Statement, type Txn } from "./model.ts";
import { SPECS } from "./specs.ts";

const OUT = import.meta.dir;

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function txnDate(s: Statement, t: Txn): string {
  const d = printDate(s.spec.dateStyle, s.year, s.spec.month, t.day);
  return s.spec.time ? `${d} ${printTime(t)}` : d;
}

/** The printed text of one cell. */
function cellText(s: Statement, t: Txn, kind: ColumnKind): string {
  const sign = s.spec.sign ?? "";
  switch (kind) {
    case "date":
      return txnDate(s, t);
    case "valueDate":
      return printDate(s.spec.dateStyle, s.year, s.spec.month, t.day);
    case "narration":
      return t.narration;
    case "reference":
      return t.reference;
    case "debit":
      return t.debit ? printMoney(t.debit, sign) : s.spec.zeroEmpty ? "0.00" : "";
    case "credit":
      return t.credit ? printMoney(t.credit, sign) : s.spec.zeroEmpty ? "0.00" : "";
    case "signed":
      if (t.debit && s.spec.parens) return `(${printMoney(t.debit, sign)})`;
      return t.debit ? printMoney(-t.debit, sign) : printMoney(t.credit, sign);
    case "amount":
      return `${printMoney(t.debit || t.credit, sign)}${s.spec.suffix ? (t.debit ? " DR" : " CR") : ""}`;
    case "drcr":
      if (s.spec.drcrWords) return t.debit ? "Debit" : "Credit";
      return t.debit ? "DR" : "CR";
    case "balance":
      return printMoney(t.balance, sign);
  }
}

const isFigure = (k: ColumnKind) => k === "debit" || k === "credit" || k === "signed" || k === "amount" || k === "balance";

function ordered(s: Statement): Txn[] {
  return s.spec.newestFirst ? [...s.txns].reverse() : s.txns;
}

function blockPairs(s: Statement): [string, string][] {
  const L = s.spec.labels;
  const sign = s.spec.sign ?? "";
  return [
    [L.holder, s.holder],
    [L.number, s.accountNumber],
    [L.period, printPeriod(s)],
    [L.opening, printMoney(s.opening, sign)],
    [L.closing, printMoney(s.closing, sign)],
  ];
}

// ---------- HTML (Chromium, wkhtmltopdf, LibreOffice Writer) ----------

function headerBlockHtml(s: Statement): string {
  const pairs = blockPairs(s);
  if (s.spec.block === "after") return "";
  // A letter: the name atop the address, a salutation, the figures in a summary box on the right.
  if (s.spec.block === "letter") {
    const [, num, per, open, close] = pairs as [string, string][];
    const box = [num!, per!, open!, close!].map(([l, v]) => `<tr><td class="label">${esc(l)}</td><td style="text-align:right">${esc(v)}</td></tr>`).join("");
    return `<table style="width:100%"><tr><td style="vertical-align:top">${esc(s.holder)}<br>12 Admiralty Way<br>Lekki Phase 1<br>Lagos</td><td style="vertical-align:top;width:45%"><table class="block" style="border:1px solid #000;width:100%">${box}</table></td></tr></table><p>Dear ${esc(s.holder)},</p><p>Please find below your statement for the period.</p>`;
  }
  // Each label above its value, four to a row, as card-style web statements print them.
  if (s.spec.block === "stacked")
    return `<table class="block" style="width:100%"><tr>${pairs.map(([l]) => `<td class="label">${esc(l)}</td>`).join("")}</tr><tr>${pairs.map(([, v]) => `<td>${esc(v)}</td>`).join("")}</tr></table>`;
  if (s.spec.block === "lines") return pairs.map(([l, v]) => `<div>${esc(l)}: ${esc(v)}</div>`).join("\n");
  if (s.spec.block === "table") return `<table class="block">${pairs.map(([l, v]) => `<tr><td class="label">${esc(l)}</td><td>${esc(v)}</td></tr>`).join("")}</table>`;
  // Two label/value pairs per line: holder | number, period | opening, - | closing.
  const [a, b, c, d, e] = pairs as [string, string][];
  const row = (x: [string, string] | null, y: [string, string]) =>
    `<tr><td class="label">${x ? esc(x[0]) : ""}</td><td>${x ? esc(x[1]) : ""}</td><td class="label">${esc(y[0])}</td><td>${esc(y[1])}</td></tr>`;
  return `<table class="block" style="width:100%">${row(a!, b!)}${row(c!, d!)}${row(null, e!)}</table>`;
}

function tableHtml(s: Statement): string {
  const cols = s.spec.columns;
  const valign = s.spec.valign ?? "top";
  const head = `<thead><tr>${cols.map((k) => `<th class="${k}">${esc(s.spec.headings[k] ?? k).replace(/\n/g, "<br>")}</th>`).join("")}</tr></thead>`;
  const rows: string[] = [];
  const blankRow = (fill: Partial<Record<ColumnKind, string>>) => `<tr>${cols.map((k) => `<td class="${k}">${esc(fill[k] ?? "")}</td>`).join("")}</tr>`;
  const sign = s.spec.sign ?? "";
  // Newest-first statements print the opening balance last, under the oldest row.
  const bf = s.spec.bfRow ? blankRow({ narration: "Balance B/F", balance: printMoney(s.opening, sign) }) : null;
  if (bf && !s.spec.newestFirst) rows.push(bf);
  const cellHtml = (t: Txn, k: ColumnKind) => (k === "date" && s.spec.narrowDate && s.spec.time ? `${esc(printDate(s.spec.dateStyle, s.year, s.spec.month, t.day))}<br>${printTime(t)}` : esc(cellText(s, t, k)));
  for (const t of ordered(s)) rows.push(`<tr>${cols.map((k) => `<td class="${k}" style="vertical-align:${k === "date" ? (s.spec.dateValign ?? valign) : valign}">${cellHtml(t, k)}</td>`).join("")}</tr>`);
  if (bf && s.spec.newestFirst) rows.push(bf);
  if (s.spec.totalsRow) {
    const debit = s.txns.reduce((a, t) => a + t.debit, 0);
    const credit = s.txns.reduce((a, t) => a + t.credit, 0);
    rows.push(blankRow({ narration: "TOTAL", debit: printMoney(debit, sign), credit: printMoney(credit, sign) }));
  }
  return `<table class="tx">${head}<tbody>${rows.join("\n")}</tbody></table>`;
}

function html(s: Statement): string {
  const narrow = s.spec.longNarrations ? "width: 34%;" : "";
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Statement</title>
<style>
body { font-family: "${s.spec.font}"; font-size: 9pt; margin: 0; }
@page { size: A4${s.spec.landscape ? " landscape" : ""}; margin: 14mm; }
h1 { font-size: 15pt; margin: 0 0 2pt 0; }
h2 { font-size: 11pt; margin: 0 0 8pt 0; font-weight: normal; }
table.block td { padding: 1pt 8pt 1pt 0; }
table.block td.label { font-weight: bold; }
table.tx { width: 100%; border-collapse: collapse; margin-top: 10pt; }
table.tx th { text-align: left; background: #ddd; padding: 3pt; }
table.tx td { padding: 3pt; }
table.tx thead { display: table-header-group; }
${s.spec.splitRows ? "" : "table.tx tr { page-break-inside: avoid; }"}
table.tx td.narration { ${narrow} }
${s.spec.columns.filter(isFigure).map((k) => `table.tx td.${k}, table.tx th.${k} { text-align: right; white-space: nowrap; }`).join("\n")}
${s.spec.narrowDate ? "table.tx td.date { width: 11%; }" : "table.tx td.date, table.tx td.valueDate, table.tx td.reference { white-space: nowrap; }"}
${s.spec.css ?? ""}
</style></head><body>
<h1>${esc(s.spec.bankName.toUpperCase())}</h1>
<h2>Statement of Account</h2>
<div class="block">
${headerBlockHtml(s)}
</div>
${tableHtml(s)}
${s.spec.block === "after" ? `<h3>Account Summary</h3><table class="block">${blockPairs(s).map(([l, v]) => `<tr><td class="label">${esc(l)}</td><td>${esc(v)}</td></tr>`).join("")}</table>` : ""}
<p>This statement is computer generated. Please report any discrepancy within 30 days.</p>
</body></html>
`;
}

// ---------- flat ODS (LibreOffice Calc -> PDF and -> XLSX) ----------

const ODS_NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"';

/** The ODF date style matching the spec's printed date. */
function odsDateStyle(spec: DocSpec): string {
  const day = '<number:day number:style="long"/>';
  const month = '<number:month number:style="long"/>';
  const mon = '<number:month number:textual="true"/>';
  const year = '<number:year number:style="long"/>';
  const t = (x: string) => `<number:text>${x}</number:text>`;
  const time = spec.time ? `${t(" ")}<number:hours number:style="long"/>${t(":")}<number:minutes number:style="long"/>${t(":")}<number:seconds number:style="long"/>` : "";
  const body =
    spec.dateStyle === "dd-Mon-yyyy" ? `${day}${t("-")}${mon}${t("-")}${year}` : spec.dateStyle === "dd Mon yyyy" ? `${day}${t(" ")}${mon}${t(" ")}${year}` : `${day}${t("/")}${month}${t("/")}${year}`;
  return `<number:date-style style:name="Ndate">${body}${time}</number:date-style>`;
}

function fods(s: Statement): string {
  const cols = s.spec.columns;
  const widths: Record<ColumnKind, number> = { date: s.spec.time ? 3.6 : 2.4, valueDate: 2.4, narration: 6.2, reference: 2.9, debit: 2.6, credit: 2.6, signed: 2.7, amount: 2.6, drcr: 1.2, balance: 2.9 };
  // The narration takes what is left of an A4 portrait page (17 cm between Calc's default margins),
  // so no column spills onto a page of its own.
  widths.narration = Math.min(6.2, 16.6 - cols.filter((k) => k !== "narration").reduce((a, k) => a + widths[k], 0));
  const str = (v: string, style = "") => `<table:table-cell${style ? ` table:style-name="${style}"` : ""} office:value-type="string"><text:p>${esc(v)}</text:p></table:table-cell>`;
  const num = (kobo: number) => `<table:table-cell table:style-name="Cnum" office:value-type="float" office:value="${(kobo / 100).toFixed(2)}"><text:p>${printMoney(kobo)}</text:p></table:table-cell>`;
  const empty = "<table:table-cell/>";
  const p2 = (n: number) => String(n).padStart(2, "0");
  const date = (t: Txn, withTime: boolean) => {
    const v = `${s.year}-${p2(s.spec.month)}-${p2(t.day)}${withTime ? `T${printTime(t)}` : ""}`;
    return `<table:table-cell table:style-name="${withTime ? "Cdate" : "Cday"}" office:value-type="date" office:date-value="${v}"><text:p>${v}</text:p></table:table-cell>`;
  };
  const row = (cells: string[]) => `<table:table-row>${cells.join("")}</table:table-row>`;
  const pad = (cells: string[]) => [...cells, ...Array.from({ length: Math.max(0, cols.length - cells.length) }, () => empty)];
  const cell = (t: Txn, k: ColumnKind): string => {
    if (k === "date") return date(t, !!s.spec.time);
    if (k === "valueDate") return date(t, false);
    if (k === "debit") return t.debit ? num(t.debit) : empty;
    if (k === "credit") return t.credit ? num(t.credit) : empty;
    if (k === "signed") return num(t.debit ? -t.debit : t.credit);
    if (k === "amount") return num(t.debit || t.credit);
    if (k === "balance") return num(t.balance);
    return str(cellText(s, t, k));
  };
  const pairs = blockPairs(s);
  // Labels overflow into the empty second column, as a report writer leaves room for them.
  const top = [
    row(pad([str(s.spec.bankName.toUpperCase(), "Cbold")])),
    row(pad([str("Statement of Account")])),
    row(pad([])),
    row(pad([str(pairs[0]![0], "Cbold"), empty, str(pairs[0]![1])])),
    row(pad([str(pairs[1]![0], "Cbold"), empty, str(pairs[1]![1])])),
    row(pad([str(pairs[2]![0], "Cbold"), empty, str(pairs[2]![1])])),
    row(pad([str(pairs[3]![0], "Cbold"), empty, num(s.opening)])),
    row(pad([str(pairs[4]![0], "Cbold"), empty, num(s.closing)])),
    row(pad([])),
  ];
  const heading = `<table:table-header-rows>${row(cols.map((k) => str((s.spec.headings[k] ?? k).replace(/\n/g, " "), "Cbold")))}</table:table-header-rows>`;
  const body = ordered(s).map((t) => row(cols.map((k) => cell(t, k))));
  return `<?xml version="1.0" encoding="UTF-8"?>
<office:document ${ODS_NS} office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
<office:font-face-decls><style:font-face style:name="${s.spec.font}" svg:font-family="${s.spec.font}" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"/></office:font-face-decls>
<office:automatic-styles>
<number:number-style style:name="Nnum"><number:number number:decimal-places="2" number:min-decimal-places="2" number:min-integer-digits="1" number:grouping="true"/></number:number-style>
${odsDateStyle(s.spec)}
<number:date-style style:name="Nday">${odsDateStyle({ ...s.spec, time: false }).replace(/^<number:date-style style:name="Ndate">|<\/number:date-style>$/g, "")}</number:date-style>
${cols.map((k, i) => `<style:style style:name="co${i}" style:family="table-column"><style:table-column-properties style:column-width="${widths[k]}cm"/></style:style>`).join("\n")}
<style:style style:name="Cnum" style:family="table-cell" style:data-style-name="Nnum"><style:text-properties style:font-name="${s.spec.font}" fo:font-size="9pt"/></style:style>
<style:style style:name="Cdate" style:family="table-cell" style:data-style-name="Ndate"><style:text-properties style:font-name="${s.spec.font}" fo:font-size="9pt"/></style:style>
<style:style style:name="Cday" style:family="table-cell" style:data-style-name="Nday"><style:text-properties style:font-name="${s.spec.font}" fo:font-size="9pt"/></style:style>
<style:style style:name="Cbold" style:family="table-cell"><style:text-properties style:font-name="${s.spec.font}" fo:font-size="9pt" fo:font-weight="bold"/></style:style>
</office:automatic-styles>
<office:body><office:spreadsheet>
<table:table table:name="Statement">
${cols.map((_, i) => `<table:table-column table:style-name="co${i}"/>`).join("")}
${top.join("\n")}
${heading}
${body.join("\n")}
</table:table>
</office:spreadsheet></office:body></office:document>
`;
}

// ---------- groff tbl ----------

function roff(s: Statement): string {
  const cols = s.spec.columns;
  const clean = (x: string) => x.replace(/\\/g, "\\e").replace(/^\./, "\\&.");
  const font = s.spec.font === "Helvetica" ? "H" : "R";
  const boxed = s.spec.name.endsWith("boxed");
  const pairs = blockPairs(s);
  const fmt = cols.map((k) => (isFigure(k) ? "r" : k === "narration" && s.spec.longNarrations ? "lw(2.3i)" : "l")).join(" ");
  return `.nr PS 9
.nr VS 11
.nr HM 0.6i
.nr FM 0.6i
.nr LL 6.8i
.nr PO 0.7i
.fam ${font === "H" ? "H" : "T"}
.\" No hyphenation: a hyphen at a wrapped line's end cannot be told from one in the text (see producers-readme).
.nr HY 0
.nh
.LP
.ps 14
.B "${s.spec.bankName.toUpperCase()}"
.ps 9
.br
Statement of Account
.sp
${pairs.map(([l, v]) => `${clean(l)}: ${clean(v)}\n.br`).join("\n")}
.sp
.TS H
${boxed ? "box tab(|);" : "tab(|);"}
${cols.map(() => "lb").join(" ")}
${fmt}.
${cols.map((k) => (s.spec.headings[k] ?? k).replace(/\n/g, " ")).join("|")}
${boxed ? "_" : ""}
.TH
${ordered(s)
  .map((t) => cols.map((k) => (k === "narration" && s.spec.longNarrations ? `T{\n.nh\n${clean(cellText(s, t, k))}\nT}` : clean(cellText(s, t, k)))).join("|"))
  .join("\n")}
.TE
.sp
This statement is computer generated.
`;
}

// ---------- CSV (LibreOffice Calc imports it and writes XLSX) ----------

function csv(s: Statement): string {
  const q = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const rows: string[][] = [[s.spec.bankName.toUpperCase()], ["Statement of Account"], ...blockPairs(s).map(([l, v]) => [l, v]), []];
  rows.push(s.spec.columns.map((k) => s.spec.headings[k] ?? k));
  for (const t of ordered(s)) rows.push(s.spec.columns.map((k) => cellText(s, t, k)));
  return `${rows.map((r) => r.map(q).join(",")).join("\n")}\n`;
}

// ---------- conversion ----------

function run(cmd: string, args: string[], cwd: string) {
  execFileSync(cmd, args, { cwd, stdio: ["ignore", "ignore", "pipe"], timeout: 180_000 });
}

const LO_PROFILE = "file:///tmp/producers-lo-profile";

function soffice(to: string, input: string, dir: string) {
  run("soffice", [`-env:UserInstallation=${LO_PROFILE}`, "--headless", "--convert-to", to, "--outdir", dir, input], dir);
}

function render(s: Statement, dir: string): string {
  const spec = s.spec;
  switch (spec.producer) {
    case "chromium": {
      writeFileSync(join(dir, "in.html"), html(s));
      run(
        "chromium",
        ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", `--print-to-pdf=${join(dir, "out.pdf")}`, "--no-pdf-header-footer", `file://${join(dir, "in.html")}`],
        dir,
      );
      return join(dir, "out.pdf");
    }
    case "wkhtmltopdf":
      writeFileSync(join(dir, "in.html"), html(s));
      run("wkhtmltopdf", ["--quiet", "-s", "A4", ...(s.spec.landscape ? ["-O", "Landscape"] : []), "--encoding", "utf-8", join(dir, "in.html"), join(dir, "out.pdf")], dir);
      return join(dir, "out.pdf");
    case "libreoffice-writer":
      writeFileSync(join(dir, "in.html"), html(s));
      soffice("pdf:writer_web_pdf_Export", join(dir, "in.html"), dir);
      return join(dir, "in.pdf");
    case "libreoffice-calc-pdf":
      writeFileSync(join(dir, "in.fods"), fods(s));
      soffice("pdf", join(dir, "in.fods"), dir);
      return join(dir, "in.pdf");
    case "libreoffice-xlsx":
      writeFileSync(join(dir, "in.fods"), fods(s));
      soffice("xlsx", join(dir, "in.fods"), dir);
      return join(dir, "in.xlsx");
    case "libreoffice-csv-xlsx":
      writeFileSync(join(dir, "in.csv"), csv(s));
      // Comma-separated, double quotes, UTF-8 (76), from line 1, as a user opening the file would.
      run("soffice", [`-env:UserInstallation=${LO_PROFILE}`, "--headless", "--infilter=CSV:44,34,76,1", "--convert-to", "xlsx", "--outdir", dir, join(dir, "in.csv")], dir);
      return join(dir, "in.xlsx");
    case "groff":
      writeFileSync(join(dir, "in.ms"), roff(s));
      execFileSync("sh", ["-c", "groff -t -ms -Tps in.ms > out.ps && ps2pdf out.ps out.pdf"], { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
      return join(dir, "out.pdf");
  }
}

if (import.meta.main) {
  const only = process.argv.slice(2);
  for (const spec of SPECS) {
    if (only.length > 0 && !only.includes(spec.name)) continue;
    const s = makeStatement(spec);
    const dir = mkdtempSync(join(tmpdir(), "producer-"));
    try {
      const out = render(s, dir);
      const target = join(OUT, spec.name);
      mkdirSync(target, { recursive: true });
      for (const f of readdirSync(target)) rmSync(join(target, f));
      copyFileSync(out, join(target, spec.file));
      writeFileSync(join(target, "expected.json"), expectedJson(expectedOf(s)));
      console.log(`${spec.name}: ${spec.producer} -> ${spec.file}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
