import { describe, expect, test } from "bun:test";
import { startTestServer } from "../helpers/server.ts";
import { postParse, rssMiB, runJob, testKey, type ParseAnswer } from "./client.ts";
import { hostileCases, sample } from "./generate.ts";

/**
 * Several clients at once on loopback, each mixing real statements with hostile files, bounded in
 * count and time: every real statement gets its 200 with exactly the result it gets alone, and
 * every hostile file a 4xx. Hostile work must never fail, slow past the limit or corrupt a
 * neighbour's parse on the same pool.
 */
const CLIENTS = 4;
const ROUNDS = 12;
/** This client sends everything as asynchronous jobs instead. */
const JOB_CLIENT = 3;
const PARSE_TIMEOUT_MS = 30_000;
const SOAK_BUDGET_MS = 150_000;

// The smallest heap limit, so workers are recycled often while other clients' parses are in flight.
const server = await startTestServer({ PARSE_TIMEOUT_MS: String(PARSE_TIMEOUT_MS), TEST_MONTHLY_CAP: "100000", WORKERS: "2", WORKER_MAX_HEAP_MB: "64" });
const VALID = ["firstbank.pdf", "zenith.pdf", "opay.xlsx", "palmpay.pdf", "opay.pdf"];
const HOSTILE = ["flatebomb.pdf", "deeparray.pdf", "manypages.pdf", "garbage.pdf", "zipbomb-lying.xlsx", "refloop.pdf", "fontbomb.pdf", "beyondgrid.xlsx", "xxe.xlsx", "zipbomb.xlsx"];
const hostile = new Map(hostileCases().map((c) => [c.filename, c]));

const baselineKey = await testKey(server);
const expected = new Map<string, ParseAnswer>();
for (const name of VALID) expected.set(name, await postParse(server, baselineKey, sample(name), name));

interface Outcome {
  client: number;
  file: string;
  valid: boolean;
  answer: ParseAnswer;
}

describe("soak", () => {
  test("the loopback server is the one under test", () => {
    expect(server.url.startsWith("http://127.0.0.1:")).toBe(true);
    for (const [name, a] of expected) expect(a.status, name).toBe(200);
  });

  test(
    `${CLIENTS} concurrent clients x ${ROUNDS} uploads, valid and hostile mixed: every valid one succeeds with the right result`,
    async () => {
      const rssBefore = rssMiB();
      const started = performance.now();
      const outcomes: Outcome[] = [];
      await Promise.all(
        Array.from({ length: CLIENTS }, async (_, client) => {
          const key = await testKey(server);
          for (let round = 0; round < ROUNDS; round++) {
            // Alternate, shifted per client, so valid and hostile work overlap on the pool.
            const valid = (round + client) % 2 === 0;
            const file = valid ? VALID[(round + client) % VALID.length]! : HOSTILE[(round * CLIENTS + client) % HOSTILE.length]!;
            const bytes = valid ? sample(file) : hostile.get(file)!.bytes;
            const answer = client === JOB_CLIENT ? await runJob(server, key, bytes, file) : await postParse(server, key, bytes, file);
            outcomes.push({ client, file, valid, answer });
          }
        }),
      );
      const elapsed = performance.now() - started;
      console.log(`soak: ${outcomes.length} uploads in ${Math.round(elapsed)} ms; RSS ${rssBefore} -> ${rssMiB()} MiB`);

      expect(outcomes.length).toBe(CLIENTS * ROUNDS);
      expect(elapsed).toBeLessThan(SOAK_BUDGET_MS);
      for (const o of outcomes) {
        const detail = `client ${o.client} ${o.file}: ${o.answer.status} ${o.answer.body.slice(0, 200)}`;
        expect(o.answer.ms, detail).toBeLessThan(PARSE_TIMEOUT_MS + 15_000);
        if (o.valid) {
          expect(o.answer.status, detail).toBe(200);
          if ("state" in o.answer) expect(o.answer.state, detail).toBe("done");
          expect(o.answer.json, detail).toEqual(expected.get(o.file)?.json);
        } else if ("state" in o.answer && o.answer.state !== "rejected") {
          // A hostile job is accepted (202) and then fails with the same error class as a sync parse.
          expect(o.answer.state, detail).toBe("failed");
          expect(hostile.get(o.file)!.classes, detail).toContain(o.answer.json?.error_class as string);
        } else {
          const c = hostile.get(o.file)!;
          expect(c.statuses.filter((s) => s !== 200), detail).toContain(o.answer.status);
          expect(c.classes, detail).toContain((o.answer.json?.error_class as string | undefined) ?? null);
        }
      }
      expect(outcomes.filter((o) => o.valid).length).toBe((CLIENTS * ROUNDS) / 2);
      expect(outcomes.filter((o) => o.client === JOB_CLIENT && "state" in o.answer).length).toBe(ROUNDS);
    },
    SOAK_BUDGET_MS + 30_000,
  );

  test("the server answers normally after the soak", async () => {
    const a = await postParse(server, baselineKey, sample("zenith.pdf"), "zenith.pdf");
    expect(a.status).toBe(200);
    expect(a.json).toEqual(expected.get("zenith.pdf")?.json);
    expect((await server.fetch("/readyz")).status).toBe(200);
  }, 60_000);
});
