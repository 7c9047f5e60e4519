import { describe, expect, test } from "bun:test";
import { OutputPlan } from "../../src/cli/files.ts";
import { formatBar, LineProgress, MultiProgress, percent } from "../../src/cli/progress.ts";
import { summary } from "../../src/cli/upload-command.ts";

class Capture {
  text = "";
  constructor(readonly isTTY: boolean) {}
  write(s: string) {
    this.text += s;
  }
}

/** A file argument (rel = its name) or a file found under a directory argument (rel given). */
const f = (path: string, rel = path.split("/").at(-1) as string) => ({ path, rel });

describe("output names", () => {
  test("next to the input or in --out, by kind", () => {
    const [a, b] = [f("/in/a.pdf"), f("/in/b.xlsx")];
    const plan = new OutputPlan([a, b]);
    expect(plan.path(a, "json")).toBe("/in/a.json");
    expect(plan.path(b, "csv")).toBe("/in/b.csv");
    expect(plan.path(a, "redact", "application/pdf")).toBe("/in/a.redacted.pdf");
    expect(plan.path(b, "redact", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")).toBe("/in/b.redacted.xlsx");
    expect(new OutputPlan([a], "/out").path(a, "json")).toBe("/out/a.json");
  });

  test("inputs that would share a name keep their extension; others do not", () => {
    const [opayPdf, opayXlsx, gtb] = [f("/x/opay.pdf"), f("/x/opay.xlsx"), f("/x/gtb.pdf")];
    const plan = new OutputPlan([opayPdf, opayXlsx, gtb]);
    expect(plan.path(opayPdf, "json")).toBe("/x/opay.pdf.json");
    expect(plan.path(opayXlsx, "json")).toBe("/x/opay.xlsx.json");
    expect(plan.path(gtb, "json")).toBe("/x/gtb.json");
  });

  test("--out keeps the folders below a directory argument, and counts what still clashes", () => {
    const [gtbank, uba] = [f("/banks/gtbank/statement.pdf", "gtbank/statement.pdf"), f("/banks/uba/statement.pdf", "uba/statement.pdf")];
    const plan = new OutputPlan([gtbank, uba], "/out");
    expect(plan.path(gtbank, "json")).toBe("/out/gtbank/statement.json");
    expect(plan.path(uba, "json")).toBe("/out/uba/statement.json");
    // Without --out the results go next to each input; different folders never clash.
    expect(new OutputPlan([gtbank, uba]).path(uba, "csv")).toBe("/banks/uba/statement.csv");
    // Two file arguments with one name from different folders, gathered by --out.
    const [one, two] = [f("/a/s.pdf"), f("/b/s.pdf")];
    const gathered = new OutputPlan([one, two], "/out");
    expect([gathered.path(one, "json"), gathered.path(two, "json")]).toEqual(["/out/s.pdf.json", "/out/s.pdf-2.json"]);
  });
});

describe("progress", () => {
  test("the bar, with its bounds", () => {
    expect(formatBar({ stage: "pages", current: 5, total: 10 }, 10)).toBe("[#####-----]  50% pages 5/10");
    expect(percent({ stage: "x", current: 3, total: 0 })).toBe(0);
    expect(percent({ stage: "x", current: 12, total: 10 })).toBe(100);
  });

  test("on a terminal the line is redrawn in place; elsewhere each change is its own line", () => {
    const tty = new Capture(true);
    const line = new LineProgress(tty, "a.pdf");
    line.update({ stage: "pages", current: 1, total: 2 });
    line.update({ stage: "pages", current: 1, total: 2 }); // unchanged: not drawn again
    line.update({ stage: "pages", current: 2, total: 2 });
    line.done();
    expect(tty.text.split("\r\x1b[2K")).toHaveLength(3);
    expect(tty.text.endsWith("100% pages 2/2\n")).toBe(true);

    const pipe = new Capture(false);
    const multi = new MultiProgress(pipe, 2, true);
    for (let i = 0; i <= 8; i++) multi.update("a.pdf", { stage: "pages", current: i, total: 8 });
    multi.finish("a.pdf", "ok a.pdf");
    // one line per quarter of progress, then the finished line with its count
    expect(pipe.text.split("\n").filter((l) => l.startsWith("a.pdf"))).toHaveLength(5);
    expect(pipe.text).toContain("[1/2] ok a.pdf\n");
  });

  test("the summary counts parsed, failed with reasons, reconciliation and pages per second", () => {
    const text = summary(
      [
        { file: "b.pdf", ok: false, reason: "encrypted_source: needs a password", pages: 0 },
        { file: "a.pdf", ok: true, reconciled: true, rows: 3, pages: 4 },
        { file: "c.pdf", ok: true, reconciled: false, rows: 2, pages: 6 },
      ],
      2,
    );
    expect(text).toBe(
      [
        "parsed: 2 of 3",
        "reconciled: 1, not reconciled: 1",
        "  not reconciled: c.pdf",
        "failed: 1",
        "  b.pdf: encrypted_source: needs a password",
        "pages: 10 in 2.00 s (5.00 pages/s)",
        "2 parsed, 1 failed",
        "",
      ].join("\n"),
    );
  });

  test("files stopped by Ctrl-C are listed as cancelled, neither parsed nor failed", () => {
    const text = summary(
      [
        { file: "a.pdf", ok: true, reconciled: true, rows: 3, pages: 4 },
        { file: "b.pdf", ok: false, cancelled: true, reason: "cancelled: interrupted", pages: 1 },
        { file: "c.pdf", ok: false, cancelled: true, reason: "not sent: interrupted", pages: 0 },
      ],
      1,
    );
    expect(text).toContain("failed: 0\ncancelled: 2\n  b.pdf: cancelled: interrupted\n  c.pdf: not sent: interrupted\n");
    expect(text.trimEnd().split("\n").at(-1)).toBe("1 parsed, 0 failed, 2 cancelled");
  });
});
