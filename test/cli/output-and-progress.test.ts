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

describe("output names", () => {
  test("next to the input or in --out, by kind", () => {
    const plan = new OutputPlan(["/in/a.pdf", "/in/b.xlsx"]);
    expect(plan.path("/in/a.pdf", "json")).toBe("/in/a.json");
    expect(plan.path("/in/b.xlsx", "csv")).toBe("/in/b.csv");
    expect(plan.path("/in/a.pdf", "redact", "application/pdf")).toBe("/in/a.redacted.pdf");
    expect(plan.path("/in/b.xlsx", "redact", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")).toBe("/in/b.redacted.xlsx");
    expect(new OutputPlan(["/in/a.pdf"], "/out").path("/in/a.pdf", "json")).toBe("/out/a.json");
  });

  test("inputs that would share a name keep their extension; others do not", () => {
    const plan = new OutputPlan(["/x/opay.pdf", "/x/opay.xlsx", "/x/gtb.pdf"]);
    expect(plan.path("/x/opay.pdf", "json")).toBe("/x/opay.pdf.json");
    expect(plan.path("/x/opay.xlsx", "json")).toBe("/x/opay.xlsx.json");
    expect(plan.path("/x/gtb.pdf", "json")).toBe("/x/gtb.json");
    // different folders only collide when --out gathers them into one
    expect(new OutputPlan(["/a/s.pdf", "/b/s.pdf"]).path("/a/s.pdf", "json")).toBe("/a/s.json");
    expect(new OutputPlan(["/a/s.pdf", "/b/s.pdf"], "/out").path("/a/s.pdf", "json")).toBe("/out/s.pdf.json");
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
        "",
      ].join("\n"),
    );
  });
});
