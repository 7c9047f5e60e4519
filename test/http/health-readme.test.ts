import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { configSchema } from "../../src/config.ts";

const readme = readFileSync(join(import.meta.dir, "../../README.md"), "utf8");
const section = (title: string): string => {
  const start = readme.indexOf(`\n## ${title}\n`);
  expect(start).toBeGreaterThan(-1);
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
};

test("the README's Configuration table lists every variable of src/config.ts", () => {
  const table = section("Configuration");
  const missing = Object.keys(configSchema.shape).filter((name) => !table.includes(`| \`${name}\` |`));
  expect(missing).toEqual([]);
});

test("the README's Errors table lists every error_class of src/errors.ts", () => {
  const source = readFileSync(join(import.meta.dir, "../../src/errors.ts"), "utf8");
  const union = /export type ErrorClass =([^;]+);/.exec(source)?.[1] ?? "";
  const classes = [...union.matchAll(/"([a-z_]+)"/g)].map((m) => m[1] ?? "");
  expect(classes.length).toBeGreaterThan(10);
  const table = section("Errors");
  expect(classes.filter((c) => !table.includes(`| \`${c}\` |`))).toEqual([]);
});
