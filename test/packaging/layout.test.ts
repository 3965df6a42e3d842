/**
 * The layout's rules that no compiler checks: no shipped source file over 300 lines, no import
 * circle among a package's files, and none among the homes of any folder, its subfolders and its
 * own files, the floors a newcomer reads it by (type-only imports included: a circle of types is
 * still a knot a newcomer must untie to move one file); and the trigger's events apart from one another.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative, sep } from "node:path";

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

/**
 * The homes an import joins: in the deepest folder that holds both files, the entry of that folder
 * (a subfolder with everything below it, or a file of its own) that holds each. A circle of homes
 * is a knot of folders even when no file is in a circle: folder A imports folder B and B imports A.
 */
function homesJoined(from: string, to: string): [string, string] {
  const fromParts = from.split(sep);
  const toParts = to.split(sep);
  let shared = 0;
  while (shared < fromParts.length - 1 && shared < toParts.length - 1 && fromParts[shared] === toParts[shared]) shared += 1;
  return [fromParts.slice(0, shared + 1).join(sep), toParts.slice(0, shared + 1).join(sep)];
}

/** The imports between homes, in every folder: a home imports another when one of its files imports one of the other's. */
function homeImports(graph: Map<string, string[]>): Map<string, string[]> {
  const homes = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    for (const target of targets) {
      const [home, imported] = homesJoined(file, target);
      if (home === imported) continue;
      homes.set(home, (homes.get(home) ?? new Set<string>()).add(imported));
    }
  }
  return new Map([...homes].map(([home, imported]) => [home, [...imported].sort()]));
}

const fileImports = new Map(files.map((file) => [file, importsOf(file)]));

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
  expect(circles(fileImports)).toEqual([]);
});

test("no import circle among the homes of any folder (its subfolders and its own files)", () => {
  expect(circles(homeImports(fileImports))).toEqual([]);
});

test("the trigger's events import its reading machinery, never one another (their list, events/index.ts, imports them all)", () => {
  const events = normalize("nodes/nodes/LinkShortTrigger/events");
  const list = join(events, "index.ts");
  const crossings = files
    .filter((file) => dirname(file) === events && file !== list)
    .flatMap((file) =>
      importsOf(file)
        .filter((target) => dirname(target) === events)
        .map((target) => `${file} imports ${target}`),
    );
  expect(files.filter((file) => dirname(file) === events).length).toBeGreaterThan(3);
  expect(crossings).toEqual([]);
});

test("the home circle finder finds two folders that import each other with no circle of files", () => {
  const root = normalize("pkg/src");
  const at = (path: string) => join(root, path);
  const graph = new Map([
    [at("records/link.ts"), [at("views/dates.ts")]],
    [at("views/dates.ts"), []],
    [at("views/answers.ts"), [at("store/state.ts")]],
    [at("store/state.ts"), [at("records/link.ts")]],
    [at("client.ts"), [at("store/state.ts")]],
  ]);
  expect(circles(graph)).toEqual([]);
  expect(circles(homeImports(graph))).toEqual([[at("records"), at("store"), at("views")]]);
});

test("a file is a home of its own beside its folder's subfolders: a file and a subfolder importing each other are a circle", () => {
  const root = normalize("pkg/src");
  const at = (path: string) => join(root, path);
  const graph = new Map([
    [at("options.ts"), [at("resources/fields.ts")]],
    [at("resources/fields.ts"), []],
    [at("resources/shared.ts"), [at("options.ts")]],
    [at("client.ts"), [at("resources/shared.ts")]],
  ]);
  expect(circles(homeImports(graph))).toEqual([[at("options.ts"), at("resources")]]);
});

test("folders deeper down are homes in their own folder: two subfolders of one folder importing each other are a circle", () => {
  const root = normalize("pkg/src");
  const at = (path: string) => join(root, path);
  const graph = new Map([
    [at("actions/link/get.ts"), [at("actions/qr/chart.ts")]],
    [at("actions/qr/get.ts"), [at("actions/link/fields.ts")]],
    [at("actions/router.ts"), [at("actions/link/get.ts"), at("actions/qr/get.ts")]],
    [at("actions/link/fields.ts"), [at("actions/operation.ts")]],
  ]);
  expect(circles(graph)).toEqual([]);
  expect(circles(homeImports(graph))).toEqual([[at("actions/link"), at("actions/qr")]]);
});

/** The client's entries: a source file per subpath of package.json's "exports" ("." is index.ts). */
/** The source of each entry the client's package.json exports (its `dist/<name>.js` is built from `src/<name>.ts`). */
function clientEntries(): string[] {
  const manifest = JSON.parse(readFileSync(join(ROOT, "packages/client/package.json"), "utf8")) as {
    exports: Record<string, string | { require: { default: string } }>;
  };
  return Object.values(manifest.exports)
    .flatMap((target) => (typeof target === "string" ? [] : [target.require.default]))
    .map((built) => normalize(`packages/client/src/${built.replace(/^\.\/dist\//, "").replace(/\.js$/, "")}.ts`));
}

test("the client's entries name each public thing they take from internal/, never re-exporting it wholesale", () => {
  const entries = clientEntries();
  expect(entries).toEqual(["index.ts", "core.ts", "charts/index.ts", "values.ts"].map((entry) => normalize(`packages/client/src/${entry}`)));
  const wholesale = entries.flatMap((entry) =>
    [...readFileSync(join(ROOT, entry), "utf8").matchAll(/export\s*\*\s*(?:as\s+\w+\s+)?from\s*["'](\.[^"']*)["']/g)]
      .map((match) => normalize(join(dirname(entry), match[1]!)))
      .filter((target) => target.startsWith(normalize("packages/client/src/internal")))
      .map((target) => `${entry}: export * from ${target}`),
  );
  expect(wholesale).toEqual([]);
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
