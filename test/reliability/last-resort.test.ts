import { describe, expect, test } from "bun:test";
import { join } from "node:path";

/**
 * Issue 29 item 5: an error nothing caught (thrown from a timer callback, or a rejected promise
 * nobody awaited) is logged and the process goes on serving, instead of exiting. Checked in a
 * process of its own: a test runner has its own handlers.
 */
const script = `
import { installLastResort } from ${JSON.stringify(join(import.meta.dir, "../../src/last-resort.ts"))};
import { createLogger } from ${JSON.stringify(join(import.meta.dir, "../../src/log.ts"))};
installLastResort(createLogger("info"));
const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("still here") });
setImmediate(() => { const socket = null; socket.write("x"); });
void Promise.reject(new Error("nobody awaited this"));
await Bun.sleep(200);
console.log(JSON.stringify({ answer: await (await fetch(server.url)).text() }));
server.stop(true);
`;

describe("last-resort handlers", () => {
  test("an uncaught exception and an unhandled rejection are logged; the process keeps serving", async () => {
    const proc = Bun.spawn([process.execPath, "-e", script], { stdout: "pipe", stderr: "pipe" });
    const [out, code] = [await new Response(proc.stdout).text(), await proc.exited];
    const lines = out.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Record<string, string>);
    expect(code).toBe(0);
    expect(lines.find((l) => l.msg === "uncaught exception; still serving")?.error).toContain("TypeError");
    expect(lines.find((l) => l.msg === "unhandled rejection; still serving")?.error).toContain("nobody awaited this");
    expect(lines.at(-1)).toEqual({ answer: "still here" });
  }, 30_000);
});
