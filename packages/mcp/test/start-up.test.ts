/**
 * A client spawns the stdio server for every conversation (issue 53): what only `--http`, `--sign-in`
 * or `--store` use is imported when asked for, so a stdio server's start never loads it. Read from
 * the module graph esbuild sees from src/cli.ts (the one dist/cli.js is built from): the modules
 * reached by static imports alone run at start; those behind an `import()` only when it runs.
 */
import { build, type Metafile } from "esbuild";
import { join, relative } from "node:path";

const PACKAGE = join(__dirname, "..");

/** Every module a start of src/cli.ts runs, and those it imports on demand: paths relative to packages/mcp. */
async function startGraph(): Promise<{ atStart: Set<string>; onDemand: Set<string> }> {
  const result = await build({
    entryPoints: [join(PACKAGE, "src/cli.ts")],
    absWorkingDir: PACKAGE,
    bundle: true,
    platform: "node",
    format: "cjs",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const inputs: Metafile["inputs"] = result.metafile.inputs;
  const atStart = new Set<string>();
  const onDemand = new Set<string>();
  const visit = (path: string) => {
    if (atStart.has(path)) return;
    atStart.add(path);
    for (const imported of inputs[path]?.imports ?? []) {
      if (imported.external) continue;
      if (imported.kind === "dynamic-import") onDemand.add(imported.path);
      else visit(imported.path);
    }
  };
  visit(relative(PACKAGE, join(PACKAGE, "src/cli.ts")));
  return { atStart, onDemand };
}

test("a stdio server's start loads neither the HTTP server, the sign-in and its jose, nor the shared store and its pg", async () => {
  const { atStart, onDemand } = await startGraph();
  const loaded = [...atStart];
  expect(loaded).toContain("src/server/server.ts");
  expect(loaded.some((path) => /node_modules\/@modelcontextprotocol\/server\//.test(path))).toBe(true);
  const notAtStart = loaded.filter((path) =>
    /node_modules\/(jose|pg|pg-[a-z]+)\/|src\/server\/(http|serve-sign-in)\.ts$|src\/account\/shared\/[a-z-]+\.ts$|src\/auth\/(sign-in|tokens|people)\.ts$|src\/store\/(postgres|auth-store|index-store|history-store|rate-budget)\.ts$/.test(
      path,
    ),
  );
  expect(notAtStart).toEqual([]);
  // Each of them comes in with the mode that needs it.
  expect([...onDemand].sort()).toEqual([
    "../client/dist/charts/index.mjs",
    "src/account/shared/state.ts",
    "src/server/http.ts",
    "src/server/serve-sign-in.ts",
    "src/view/page.ts",
  ]);
}, 30_000);

test("a stdio server's start loads none of the client's charts (glyphs, layout, PNG encoder): the first answer that draws one does", async () => {
  const { atStart, onDemand } = await startGraph();
  expect([...atStart].filter((path) => /client\/(src|dist)\/charts\//.test(path))).toEqual([]);
  expect([...onDemand].some((path) => /client\/(src|dist)\/charts\/index/.test(path))).toBe(true);
}, 30_000);

test("a stdio server's start does not build the Apps view's page: it is built at the first resources/read", async () => {
  const { atStart, onDemand } = await startGraph();
  expect(atStart).toContain("src/view/apps.ts");
  expect([...atStart].filter((path) => /src\/view\/(page|script|browser\/[a-z-]+)\.ts$|scripts\/view-bundle\.ts$/.test(path))).toEqual([]);
  expect(onDemand).toContain("src/view/page.ts");
}, 30_000);
