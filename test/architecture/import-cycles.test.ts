/**
 * Imports point downward: no module of src/ reaches itself through static imports (type-only ones
 * included, since they tie the modules' meaning together just as much). Walks the import
 * statements of every .ts file and reports each strongly connected group with one path around it.
 * Run alone to list the cycles: `bun test test/architecture/import-cycles.test.ts`.
 */
import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const SRC = resolve(import.meta.dir, "../../src");

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return name.endsWith(".ts") ? [path] : [];
  });
}

// `import ... from "x"`, `export ... from "x"`, `import "x"`; a dynamic import() is loaded on demand and is no edge.
const STATIC_IMPORT = /^\s*(?:import|export)\s+(?:type\s+)?(?:[^'"();]*?\s+from\s+)?["']([^"']+)["']/gm;

/** Relative imports of `file` that resolve to files under src/. */
export function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
  return [...text.matchAll(STATIC_IMPORT)]
    .map((m) => m[1]!)
    .filter((spec) => spec.startsWith("."))
    .map((spec) => resolve(dirname(file), spec))
    .map((path) => (existsSync(path) && statSync(path).isFile() ? path : [`${path}.ts`, join(path, "index.ts")].find((p) => existsSync(p)) ?? path))
    .filter((path) => path.startsWith(SRC) && existsSync(path));
}

/** Strongly connected groups of more than one module (or a module importing itself), by Tarjan's algorithm. */
export function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    order.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!order.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, order.get(w)!));
    }
    if (low.get(v) !== order.get(v)) return;
    const group: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      onStack.delete(w);
      group.push(w);
      if (w === v) break;
    }
    if (group.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(group.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!order.has(v)) visit(v);
  return found;
}

/** One path around a group, starting at its first module: a→b→…→a. */
function pathAround(group: string[], graph: Map<string, string[]>): string[] {
  const inGroup = new Set(group);
  const start = group[0]!;
  const seen = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!inGroup.has(w)) continue;
      if (w === start) {
        const path = [v];
        for (let p = v; p !== start; p = seen.get(p)!) path.unshift(seen.get(p)!);
        return [...path, start];
      }
      if (!seen.has(w)) {
        seen.set(w, v);
        queue.push(w);
      }
    }
  }
  return group;
}

test("no import cycle in src/", () => {
  const graph = new Map(tsFiles(SRC).map((f) => [f, importsOf(f)] as const));
  expect(graph.size).toBeGreaterThan(100);
  const report = cycles(graph).map((g) => pathAround(g, graph).map((f) => relative(SRC, f)).join(" -> "));
  expect(report).toEqual([]);
});

test("the walker sees a cycle when there is one", () => {
  const graph = new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a", "d"]], ["d", []], ["e", ["e"]]]);
  expect(cycles(graph)).toEqual([["a", "b", "c"], ["e"]]);
  expect(pathAround(["a", "b", "c"], graph)).toEqual(["a", "b", "c", "a"]);
});
