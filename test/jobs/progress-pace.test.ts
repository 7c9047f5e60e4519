import { describe, expect, test } from "bun:test";
import type { Progress } from "../../src/engine/types.ts";
import { ProgressPace } from "../../src/jobs/progress-pace.ts";

const step = (stage: string, current: number, total: number): Progress => ({ stage, current, total }) as Progress;
const label = (p: Progress) => `${p.stage} ${p.current}/${p.total}`;

function paced(everyMs: number) {
  const sent: string[] = [];
  const pace = new ProgressPace((p) => sent.push(label(p)), step("queued", 0, 0), everyMs);
  return { sent, pace };
}

describe("ProgressPace", () => {
  test("of one stage's steps, the first goes out at once and the latest one after the interval; the stage's last step at once", async () => {
    const { sent, pace } = paced(60);
    pace.report(step("extract", 0, 500));
    for (let n = 1; n <= 300; n++) pace.report(step("extract", n, 500));
    expect(sent).toEqual(["extract 0/500"]);
    // A poll sees the latest step even though no event carried it yet.
    expect(label(pace.latest)).toBe("extract 300/500");
    await Bun.sleep(120);
    expect(sent).toEqual(["extract 0/500", "extract 300/500"]);
    pace.report(step("extract", 500, 500));
    expect(sent.at(-1)).toBe("extract 500/500");
  });

  test("a new stage sends the previous stage's unsent step first, then itself", () => {
    const { sent, pace } = paced(10_000);
    pace.report(step("extract", 0, 40));
    pace.report(step("extract", 17, 40));
    pace.report(step("assemble", 0, 1));
    pace.report(step("assemble", 1, 1));
    expect(sent).toEqual(["extract 0/40", "extract 17/40", "assemble 0/1", "assemble 1/1"]);
  });

  test("a step that does not move forward within its stage is dropped", () => {
    const { sent, pace } = paced(0);
    expect(pace.report(step("extract", 3, 9))).toBe(true);
    expect(pace.report(step("extract", 2, 9))).toBe(false);
    expect(pace.report(step("extract", 3, 9))).toBe(false);
    expect(label(pace.latest)).toBe("extract 3/9");
    expect(sent).toEqual(["extract 3/9"]);
  });

  test("flush sends a pending step once; stop drops it and its timer", async () => {
    const { sent, pace } = paced(40);
    pace.report(step("extract", 0, 9));
    pace.report(step("extract", 4, 9));
    pace.flush();
    pace.flush();
    expect(sent).toEqual(["extract 0/9", "extract 4/9"]);
    pace.report(step("extract", 5, 9));
    pace.stop();
    await Bun.sleep(80);
    expect(sent).toEqual(["extract 0/9", "extract 4/9"]);
  });
});
