import { describe, expect, test } from "bun:test";
import { createLogger } from "../../src/log.ts";
import { startTestServer } from "../helpers/server.ts";
import { makeStatementPdf } from "./support/statement-pdf.ts";
import { form, get, newKey, readSse, sample, type SseEvent, type Snapshot, submit, waitFinished } from "./support/http.ts";

// One worker: a second job waits in the queue, and a long document keeps the worker busy.
const lines: string[] = [];
const server = await startTestServer({ WORKERS: "1", TEST_MONTHLY_CAP: "100000" }, { log: createLogger("info", (l) => lines.push(l)) });
const long = await makeStatementPdf({ pages: 150 });

const del = (path: string, key?: string) => server.fetch(path, { method: "DELETE", headers: key ? { authorization: `Bearer ${key}` } : {} });
const logged = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);

/** Reads SSE blocks from a live stream until `until` accepts an event; returns the reader to go on with. */
async function readUntil(res: Response, until: (e: SseEvent) => boolean): Promise<{ seen: SseEvent[]; rest: () => Promise<SseEvent[]> }> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const seen: SseEvent[] = [];
  const drain = () => {
    const blocks = buffer.split("\n\n");
    buffer = blocks.pop() ?? "";
    const out: SseEvent[] = [];
    for (const block of blocks) {
      let event = "message";
      const data: string[] = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) event = line.slice(7);
        else if (line.startsWith("data: ")) data.push(line.slice(6));
      }
      if (data.length > 0) out.push({ event, data: data.join("\n") });
    }
    return out;
  };
  for (;;) {
    const r = await reader.read();
    if (r.done) return { seen, rest: async () => [] };
    buffer += decoder.decode(r.value, { stream: true });
    const events = drain();
    seen.push(...events);
    if (events.some(until)) break;
  }
  return {
    seen,
    rest: async () => {
      const more: SseEvent[] = [];
      for (let r = await reader.read(); !r.done; r = await reader.read()) {
        buffer += decoder.decode(r.value, { stream: true });
        more.push(...drain());
      }
      return more;
    },
  };
}

describe("DELETE /v1/parse/jobs/{id}", () => {
  test("a running job: aborted in its worker, snapshot failed job_cancelled, the stream ends with that envelope, nothing counted", async () => {
    const { key, owner } = await newKey(server);
    const created = await submit(server, key, form(long));
    const stream = await server.fetch(created.stream_url);
    expect(stream.status).toBe(200);
    // Running: the first page is read. The stage says so too (never `queued` while running).
    const { seen, rest } = await readUntil(stream, (e) => e.event === "message" && (JSON.parse(e.data) as { current: number }).current >= 1);
    const running = (await (await get(server, created.poll_url, key)).json()) as Snapshot;
    expect(running.state).toBe("running");
    expect(running.progress.stage).toBe("extract");
    expect(seen.map((e) => JSON.parse(e.data).stage)).not.toContain("queued");

    const res = await del(created.poll_url, key);
    expect(res.status).toBe(200);
    const snap = (await res.json()) as Snapshot;
    expect(snap).toMatchObject({ job_id: created.job_id, state: "failed", error_class: "job_cancelled" });
    expect(snap).not.toHaveProperty("result");

    const after = await rest();
    const last = after.at(-1)!;
    expect(last.event).toBe("result");
    expect(JSON.parse(last.data)).toMatchObject({ error_class: "job_cancelled" });
    expect((await get(server, `${created.poll_url}/result`, key)).status).toBe(404);

    // The worker task was aborted (its run ended with the cancel), and the pool carries on.
    const next = await submit(server, key, form(await sample("firstbank.pdf")));
    expect((await waitFinished(server, key, next.job_id)).state).toBe("done");
    expect(logged().some((l) => l.msg === "parse failed" && l.error_class === "job_cancelled")).toBe(true);
    // Only the finished job counts; the cancelled one is neither a success nor a failure.
    const usage = (await (await get(server, "/v1/usage", key)).json()) as { period_parses: number };
    expect(usage.period_parses).toBe(1);
    const admin = (await (await server.admin(`/v1/admin/usage?owner=${owner}`)).json()) as { period_parses: number; success_rate: number };
    expect(admin).toMatchObject({ period_parses: 1, success_rate: 1 });
  }, 120_000);

  test("a queued job: cancelled before it starts, stage queued while it waited; the running one finishes; a finished job is 409 job_finished", async () => {
    const { key } = await newKey(server);
    const first = await submit(server, key, form(long));
    const second = await submit(server, key, form(await sample("firstbank.pdf")));
    const queued = (await (await get(server, second.poll_url, key)).json()) as Snapshot;
    expect(queued.state).toBe("queued");
    expect(queued.progress.stage).toBe("queued");

    const res = await del(second.poll_url, key);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ state: "failed", error_class: "job_cancelled", progress: { stage: "queued" } });
    const late = await readSse(await server.fetch(second.stream_url));
    expect(late.events.map((e) => e.event)).toEqual(["result"]);
    expect(JSON.parse(late.events[0]!.data).error_class).toBe("job_cancelled");

    const done = await waitFinished(server, key, first.job_id);
    expect(done.state).toBe("done");
    for (const id of [first.job_id, second.job_id]) {
      const again = await del(`/v1/parse/jobs/${id}`, key);
      expect(again.status).toBe(409);
      expect(((await again.json()) as { error_class: string }).error_class).toBe("job_finished");
    }
    expect(((await (await get(server, "/v1/usage", key)).json()) as { period_parses: number }).period_parses).toBe(1);
  }, 120_000);

  test("only the creating owner's key: another owner and an unknown id get 404 not_found, no key 401", async () => {
    const { key } = await newKey(server);
    const other = await newKey(server);
    const created = await submit(server, key, form(await sample("firstbank.pdf")));
    const foreign = await del(created.poll_url, other.key);
    expect(foreign.status).toBe(404);
    expect(((await foreign.json()) as { error_class: string }).error_class).toBe("not_found");
    expect((await del(created.poll_url)).status).toBe(401);
    const unknown = await del("/v1/parse/jobs/job_0000000000000000000000", key);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error_class: string }).error_class).toBe("not_found");
    expect((await del("/v1/parse/jobs/nope", key)).status).toBe(422);
    await waitFinished(server, key, created.job_id);
  }, 120_000);
});
