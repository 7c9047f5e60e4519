import { describe, expect, test } from "bun:test";
import { ADMIN_URL } from "../helpers/postgres-server.ts";

/**
 * Issue 29 item 5, the driver itself (patches/postgres+3.4.9.patch, applied by patch-package at
 * install): a query sent on a connection whose backend has died fails with CONNECTION_CLOSED
 * instead of throwing `null is not an object (evaluating 'socket.write')` from postgres.js's
 * nextWrite, where nothing can catch it (porsager/postgres#1208). On the real PostgreSQL server,
 * in a process of its own with no handler for uncaught errors: the process would die.
 */
const script = `
import postgres from "postgres";
const sql = postgres(${JSON.stringify(ADMIN_URL)}, { max: 2, onnotice: () => {} });
const killer = postgres(${JSON.stringify(ADMIN_URL)}, { max: 1, onnotice: () => {} });
const reserved = await sql.reserve();
const [{ pid }] = await reserved\`select pg_backend_pid() as pid\`;
await killer\`select pg_terminate_backend(\${pid})\`;
await Bun.sleep(100);
const codes = [];
for (let i = 0; i < 3; i++) codes.push(await reserved\`select 1\`.then(() => "ok", (e) => e.code));
const other = await sql\`select 2 as two\`;
console.log(JSON.stringify({ codes, other: other[0].two }));
await sql.end({ timeout: 1 });
await killer.end({ timeout: 1 });
`;

describe("postgres.js on a dead connection", () => {
  test("queries on a reserved connection whose backend was terminated fail with CONNECTION_CLOSED; the process lives and the pool's other connections answer", async () => {
    const proc = Bun.spawn([process.execPath, "-e", script], { cwd: `${import.meta.dir}/../..`, stdout: "pipe", stderr: "pipe" });
    const [out, err, code] = [await new Response(proc.stdout).text(), await new Response(proc.stderr).text(), await proc.exited];
    expect({ code, err: err.slice(-500) }).toEqual({ code: 0, err: "" });
    expect(JSON.parse(out.trim().split("\n").at(-1)!)).toEqual({ codes: ["CONNECTION_CLOSED", "CONNECTION_CLOSED", "CONNECTION_CLOSED"], other: 2 });
  }, 30_000);
});
