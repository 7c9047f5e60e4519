/**
 * A thread claiming pages one at a time from the back until none are left (test/jobs/pool.test.ts).
 * It says it is ready, then waits on `go` so that every thread starts claiming at the same moment.
 */
import { parentPort, workerData } from "node:worker_threads";
import { type PageBlock, PageClaims } from "../../../src/jobs/claims.ts";

const { buffer, go } = workerData as { buffer: SharedArrayBuffer; go: SharedArrayBuffer };
const claims = new PageClaims(buffer);
const gate = new Int32Array(go);
parentPort!.postMessage("ready");
Atomics.wait(gate, 0, 0);
const got: PageBlock[] = [];
for (let b = claims.back(1); b; b = claims.back(1)) got.push(b);
parentPort!.postMessage(got);
