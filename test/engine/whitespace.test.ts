import { describe, expect, test } from "bun:test";
import { isJsSpace, squeezeSpaces } from "../../src/engine/whitespace.ts";

describe("whitespace", () => {
  test("isJsSpace is exactly the set \\s matches, over every UTF-16 unit", () => {
    const differ: number[] = [];
    for (let c = 0; c < 0x10000; c++) if (isJsSpace(c) !== /\s/.test(String.fromCharCode(c))) differ.push(c);
    expect(differ).toEqual([]);
  });

  test("squeezeSpaces answers what replace(/\\s+/g, ' ').trim() does, and already squeezed text as the same string", () => {
    const samples = ["", " ", "a", "a b", " a", "a ", "a  b", "a\tb", "a\u00a0b", "\u3000a b\u2028", "TRANSFER TO  JOHN\nDOE ", "x \ufeff y", "₦1,200.00 CR"];
    const units = [" ", "\t", "\n", "\u00a0", "\u2003", "\u200b", "\ufeff", "a", "1", "é", "-"];
    for (let k = 0; k < 20_000; k++) {
      let s = "";
      for (let j = Math.floor(Math.random() * 10); j > 0; j--) s += units[Math.floor(Math.random() * units.length)];
      samples.push(s);
    }
    for (const s of samples) expect(squeezeSpaces(s)).toBe(s.replace(/\s+/g, " ").trim());
  });
});
