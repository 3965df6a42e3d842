/**
 * The layout's two rules that no compiler checks: no shipped source file over 300 lines, and no
 * import circle among a package's files (type-only imports included: a circle of types is still a
 * knot a newcomer must untie to move one file).
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";

const ROOT = join(__dirname, "../..");
const SHIPPED = ["packages/client/src", "packages/sandbox/src", "packages/mcp/src", "nodes/nodes", "nodes/credentials", "raycast-extension/src"];
const MAX_LINES = 300;

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

const files = SHIPPED.flatMap(sourceFiles);
const known = new Set(files);

/** The files of this tree a file imports or re-exports from by a relative path. */
function importsOf(file: string): string[] {
  const source = readFileSync(join(ROOT, file), "utf8");
  const specifiers = [...source.matchAll(/(?:import|export)\s[^;]*?from\s+["'](\.[^"']+)["']/g)].map((match) => match[1]!);
  return specifiers.flatMap((specifier) => {
    const base = normalize(join(dirname(file), specifier));
    const target = [`${base}.ts`, `${base}.tsx`, join(base, "index.ts")].find((candidate) => known.has(candidate));
    return target ? [target] : [];
  });
}

/** Strongly connected groups of more than one file (Tarjan), each a circle of imports. */
function circles(graph: Map<string, string[]>): string[][] {
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    order.set(file, order.size);
    low.set(file, order.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!order.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file)!, order.get(next)!));
      }
    }
    if (low.get(file) !== order.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1) found.push(group.sort());
  };
  for (const file of graph.keys()) if (!order.has(file)) visit(file);
  return found;
}

test("every shipped source file is found (the walk reads the packages it names)", () => {
  expect(files.length).toBeGreaterThan(150);
  expect(files).toContain(normalize("packages/client/src/client.ts"));
});

test(`no shipped source file has more than ${MAX_LINES} lines`, () => {
  const long = files
    .map((file) => ({ file, lines: readFileSync(join(ROOT, file), "utf8").split("\n").length - 1 }))
    .filter(({ lines }) => lines > MAX_LINES)
    .map(({ file, lines }) => `${relative(ROOT, join(ROOT, file))}: ${lines}`);
  expect(long).toEqual([]);
});

test("no import circle among the shipped source files", () => {
  expect(circles(new Map(files.map((file) => [file, importsOf(file)])))).toEqual([]);
});

test("the circle finder finds a circle of types", () => {
  const graph = new Map([
    ["a.ts", ["b.ts"]],
    ["b.ts", ["c.ts"]],
    ["c.ts", ["a.ts"]],
    ["d.ts", ["a.ts"]],
  ]);
  expect(circles(graph)).toEqual([["a.ts", "b.ts", "c.ts"]]);
});
