import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { configSchema } from "../../src/config.ts";

const page = (path: string) => readFileSync(join(import.meta.dir, "../..", path), "utf8");
/** One `## title` section of a Markdown page (README.md, docs/*.md). */
const section = (path: string, title: string): string => {
  const text = page(path);
  const start = text.indexOf(`\n## ${title}\n`);
  expect(start).toBeGreaterThan(-1);
  const end = text.indexOf("\n## ", start + 1);
  return text.slice(start, end === -1 ? undefined : end);
};

test("the README's Configuration table lists every variable of src/config.ts", () => {
  const table = section("README.md", "Configuration");
  const missing = Object.keys(configSchema.shape).filter((name) => !table.includes(`| \`${name}\` |`));
  expect(missing).toEqual([]);
});

test("docs/errors.md's Errors table lists every error_class of src/errors.ts", () => {
  const source = readFileSync(join(import.meta.dir, "../../src/errors.ts"), "utf8");
  const union = /export type ErrorClass =([^;]+);/.exec(source)?.[1] ?? "";
  const classes = [...union.matchAll(/"([a-z_]+)"/g)].map((m) => m[1] ?? "");
  expect(classes.length).toBeGreaterThan(10);
  const table = section("docs/errors.md", "Errors");
  expect(classes.filter((c) => !table.includes(`| \`${c}\` |`))).toEqual([]);
});
