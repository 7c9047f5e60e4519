/**
 * The real parse worker, except that a finished parse keeps its answer until the PostgreSQL port
 * refuses connections. The outage test needs its parses to finish *during* the outage; a 120-page
 * parse takes about half a second here, as long as pg_ctlcluster takes to stop the server, so
 * without the hold a parse could finish (and be counted) before the stop on a fast machine.
 */
import { connect } from "node:net";
import handle from "../../../workers/parse.worker.ts";
import type { WorkerTask } from "../../../src/jobs/tasks.ts";

/** Bounded: if the database never goes, the test fails on its own assertions instead of hanging. */
const HOLD_LIMIT_MS = 30_000;
const target = new URL(process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");

function portOpen(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: target.hostname, port: Number(target.port || 5432) });
    socket.once("connect", () => { socket.destroy(); resolve(true); });
    socket.once("error", () => resolve(false));
  });
}

async function untilDatabaseDown(): Promise<void> {
  for (const until = Date.now() + HOLD_LIMIT_MS; Date.now() < until; await Bun.sleep(25)) {
    if (!(await portOpen())) return;
  }
}

export default async function heldUntilOutage(task: WorkerTask): ReturnType<typeof handle> {
  const answer = await handle(task);
  if (task.op === "parse") await untilDatabaseDown();
  return answer;
}
