/**
 * The shared standard security handler on plain values, fed from files written by the test
 * encryptor (test/hostile/encrypt.ts, written from the standard independently of it). The readers
 * that fill StandardSecurity are covered by the guard and redaction tests; this checks the cases
 * where the two old copies disagreed and the shared one had to pick.
 */
import { describe, expect, test } from "bun:test";
import { decrypt, decryptObjectData, emptyPasswordOpens, emptyUserEntries, fileKey, type StandardSecurity, userPasswordFromOwner } from "../../src/engine/pdf/security.ts";
import { type Cipher, encryptedPdf } from "../hostile/encrypt.ts";

const text = (b: Uint8Array) => Buffer.from(b).toString("latin1");
const hexEntry = (s: string, key: string) => {
  const m = new RegExp(`/${key} <([0-9a-f]*)>`).exec(s);
  return m ? new Uint8Array(Buffer.from(m[1]!, "hex")) : undefined;
};
const latin1 = (s: string) => new Uint8Array(Buffer.from(s, "latin1"));

const PLAIN = new Uint8Array(Buffer.from("BT (hello) Tj ET"));

/** The security values and the (still encrypted) stream of object 2 of a one-stream file. */
function fixture(cipher: Cipher, user: string, owner = "owner-secret"): { sec: StandardSecurity; stream: Uint8Array } {
  const pdf = encryptedPdf(["<< /Type /Catalog >>", { dict: "<< >>", data: PLAIN }], cipher, user, owner);
  const s = text(pdf);
  const encrypt = s.slice(s.indexOf("/Filter /Standard"));
  const num = (key: string) => Number(new RegExp(`/${key} (-?\\d+)`).exec(encrypt)?.[1]);
  const method = cipher === "rc4" ? "rc4" : "aes";
  const start = s.indexOf("stream\n", s.indexOf("2 0 obj")) + "stream\n".length;
  const length = Number(/\/Length (\d+)/.exec(s.slice(s.indexOf("2 0 obj")))?.[1]);
  return {
    sec: {
      v: num("V"),
      r: num("R"),
      length: num("Length"),
      o: hexEntry(s, "O")!,
      u: hexEntry(s, "U")!,
      oe: hexEntry(s, "OE"),
      ue: hexEntry(s, "UE"),
      p: num("P"),
      encryptMetadata: true,
      stmF: method,
      strF: method,
      id0: new Uint8Array(Buffer.from(/\/ID \[<([0-9a-f]*)>/.exec(s)![1]!, "hex")),
    },
    stream: pdf.subarray(start, start + length),
  };
}

describe("standard security handler", () => {
  for (const cipher of ["rc4", "aes128", "aes256"] as const) {
    test(`${cipher}: the user and the owner password give the same file key, and it decrypts the stream`, () => {
      const { sec, stream } = fixture(cipher, "s3cret");
      const pw = (s: string) => (sec.r >= 5 ? new Uint8Array(Buffer.from(s, "utf8")) : latin1(s));
      const asUser = fileKey(sec, pw("s3cret"));
      expect(asUser).toBeDefined();
      expect(fileKey(sec, pw("owner-secret"))).toEqual(asUser!);
      expect(fileKey(sec, pw("wrong"))).toBeUndefined();
      expect(text(decryptObjectData(sec, asUser!, 2, 0, sec.stmF, stream))).toBe(text(PLAIN));
    });
  }

  test("an unsigned /P means the same permission bits as the signed one", () => {
    const { sec } = fixture("rc4", "");
    expect(sec.p).toBeLessThan(0);
    expect(fileKey({ ...sec, p: sec.p >>> 0 }, new Uint8Array(0))).toEqual(fileKey(sec, new Uint8Array(0))!);
  });

  test("AES-256 without /UE opens nothing rather than yielding an empty key", () => {
    const { sec } = fixture("aes256", "");
    expect(fileKey(sec, new Uint8Array(0))?.length).toBe(32);
    expect(fileKey({ ...sec, ue: new Uint8Array(0) }, new Uint8Array(0))).toBeUndefined();
  });

  test("bad AES padding: empty when strict, the whole blocks when tolerant", () => {
    const key = new Uint8Array(16).fill(7);
    const data = new Uint8Array(48).fill(1); // an IV and two blocks that will not end in valid padding
    expect(decrypt("aes", key, data).length).toBe(0);
    expect(decrypt("aes", key, data, { tolerant: true }).length).toBe(32);
    expect(decrypt("aes", key, data.subarray(0, 40), { tolerant: true }).length).toBe(16);
  });

  for (const cipher of ["rc4", "aes128", "aes256"] as const) {
    test(`${cipher}: the empty password as the owner's opens a file whose user password is set`, () => {
      const { sec, stream } = fixture(cipher, "s3cret", "");
      const opens = emptyPasswordOpens(sec);
      expect(opens?.as).toBe("owner");
      const key = (opens as { key: Uint8Array }).key;
      expect(text(decryptObjectData(sec, key, 2, 0, sec.stmF, stream))).toBe(text(PLAIN));
      if (sec.r < 5) {
        expect(text(userPasswordFromOwner(sec, new Uint8Array(0))!)).toBe("s3cret");
        expect(userPasswordFromOwner(sec, latin1("wrong"))).toBeUndefined();
      } else {
        // New /U and /UE let the empty USER password unwrap the same file key.
        const rekeyed = { ...sec, ...emptyUserEntries(sec, key) };
        expect(emptyPasswordOpens(rekeyed)?.as).toBe("user");
        expect(fileKey(rekeyed, new Uint8Array(0))).toEqual(key);
      }
      expect(emptyPasswordOpens(fixture(cipher, "s3cret").sec)).toBeUndefined();
      expect(emptyPasswordOpens(fixture(cipher, "").sec)?.as).toBe("user");
    });
  }
});
