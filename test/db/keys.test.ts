import { describe, expect, test } from "bun:test";
import { sha256Hex } from "../../src/crypto.ts";
import { findActiveKeyByHash, issueKey, issueTestKey, listKeys, revokeKey } from "../../src/db/keys.ts";
import { idPattern, newId } from "../../src/ids.ts";
import { generateRawKey, parseRawKey } from "../../src/keys/format.ts";
import { sharedDb, unique } from "../helpers/db.ts";

const db = await sharedDb();

describe("raw key format", () => {
  test("carries the service prefix, the tier, 27 secret characters and a 6-character checksum", () => {
    for (const tier of ["live", "first_party", "test"] as const) {
      const { key, prefix } = generateRawKey(tier);
      expect(key).toMatch(new RegExp(`^stp_${tier}_[0-9A-Za-z]{33}$`));
      expect(prefix).toBe(key.slice(0, `stp_${tier}_`.length + 4));
      expect(parseRawKey(key)).toEqual({ tier });
    }
  });

  test("the secret holds at least 128 random bits", () => {
    // 27 base62 characters carry 27 * log2(62) bits.
    expect(27 * Math.log2(62)).toBeGreaterThanOrEqual(160);
    const keys = new Set(Array.from({ length: 2000 }, () => generateRawKey("live").key));
    expect(keys.size).toBe(2000);
  });

  test("every base62 character shows up in secrets (no skewed alphabet)", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) for (const c of generateRawKey("live").key.slice(9, 36)) seen.add(c);
    expect(seen.size).toBe(62);
  });

  test("a mistyped, truncated or re-tiered key fails the checksum", () => {
    const { key } = generateRawKey("live");
    const flipped = key.slice(0, 12) + (key[12] === "a" ? "b" : "a") + key.slice(13);
    expect(parseRawKey(flipped)).toBeUndefined();
    expect(parseRawKey(key.slice(0, -1))).toBeUndefined();
    expect(parseRawKey(key.replace("stp_live_", "stp_test_"))).toBeUndefined();
    expect(parseRawKey(`${key} `)).toBeUndefined();
    expect(parseRawKey("")).toBeUndefined();
  });
});

describe("prefixed ids", () => {
  test("come from one map and match their own pattern only", () => {
    const key = newId("apiKey");
    expect(key).toMatch(/^key_[0-9A-Za-z]{22}$/);
    expect(idPattern("apiKey").test(key)).toBe(true);
    expect(idPattern("job").test(key)).toBe(false);
    expect(newId("job")).toMatch(idPattern("job"));
  });
});

describe("key storage", () => {
  test("issueKey stores the hash and prefix, not the key; the hash finds the active key", async () => {
    const owner = unique();
    const k = await issueKey(db, { name: "n", owner, tier: "live" });
    const rows = await db.query<Record<string, unknown>>(`select * from api_keys where id = $1`, [k.id]);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.key_hash).toBe(sha256Hex(k.key));
    expect(rows[0]?.prefix).toBe(k.prefix);
    expect(Object.values(rows[0] ?? {}).some((v) => typeof v === "string" && v.includes(k.key))).toBe(false);
    expect(await findActiveKeyByHash(db, sha256Hex(k.key))).toEqual({ keyId: k.id, owner, tier: "live", prefix: k.prefix });
  });

  test("revokeKey is true once, then false; the revoked key is no longer found", async () => {
    const k = await issueKey(db, { name: "n", owner: unique(), tier: "first_party" });
    expect(await revokeKey(db, k.id)).toBe(true);
    expect(await revokeKey(db, k.id)).toBe(false);
    expect(await findActiveKeyByHash(db, sha256Hex(k.key))).toBeUndefined();
    expect(await revokeKey(db, "key_doesnotexist00000000")).toBe(false);
  });

  test("listKeys returns ISO UTC timestamps, newest first, filtered by owner exactly", async () => {
    const owner = unique();
    const a = await issueKey(db, { name: "a", owner, tier: "live" });
    await Bun.sleep(5);
    const b = await issueKey(db, { name: "b", owner, tier: "live" });
    await issueKey(db, { name: "other", owner: `${owner}x`, tier: "live" });
    await revokeKey(db, a.id);
    const keys = await listKeys(db, owner);
    expect(keys.map((k) => k.id)).toEqual([b.id, a.id]);
    expect(keys[0]?.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Math.abs(Date.parse(keys[0]?.created_at ?? "") - Date.now())).toBeLessThan(60_000);
    expect(keys[1]?.revoked_at).toMatch(/Z$/);
    expect(keys[0]?.revoked_at).toBeNull();
  });

  test("issueTestKey keeps one active test key per owner, also when called concurrently", async () => {
    const owner = unique();
    const issued = await Promise.all(Array.from({ length: 20 }, () => issueTestKey(db, owner)));
    const active = await db.query<{ id: string }>(`select id from api_keys where owner = $1 and tier = 'test' and revoked_at is null`, [owner]);
    expect(active).toHaveLength(1);
    expect(issued.map((k) => k.id)).toContain(active[0]?.id ?? "none");
  });

  test("the database itself refuses a second active test key for an owner", async () => {
    const owner = unique();
    await issueTestKey(db, owner);
    const second = db.query(
      `insert into api_keys (id, key_hash, prefix, name, owner, tier) values ($1, $2, 'p', 'n', $3, 'test')`,
      [newId("apiKey"), sha256Hex(crypto.randomUUID()), owner],
    );
    await expect(second).rejects.toThrow();
  });
});
