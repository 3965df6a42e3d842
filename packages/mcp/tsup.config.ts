import { readFileSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import { defineConfig, type Options } from "tsup";
import { bundleStatisticsView } from "./scripts/view-bundle";

type Plugin = NonNullable<Options["esbuildPlugins"]>[number];

/** The version of the zod package a resolved file belongs to (the nearest package.json named zod above it). */
function zodVersionOf(file: string): string | undefined {
  for (let folder = dirname(file); folder !== dirname(folder); folder = dirname(folder)) {
    let manifest: { name?: string; version?: string };
    try {
      manifest = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as typeof manifest;
    } catch {
      continue; // no package.json here: look further up
    }
    if (manifest.name === "zod") return manifest.version;
  }
  return undefined;
}

const KEEP = Symbol("resolved once");
/**
 * The SDK's packages (@modelcontextprotocol/server and /core) each install their own copy of zod 4:
 * when both are the same version, the bundle holds one (each copy costs its own start: its classes
 * built and its code compiled), the one beside the server package.
 */
const oneZodForTheSdk: Plugin = {
  name: "one-zod-for-the-sdk",
  setup(build) {
    let server: Promise<{ path: string }> | undefined;
    build.onResolve({ filter: /^zod(\/.*)?$/ }, async (args) => {
      if (args.pluginData === KEEP || !args.importer.includes(`${sep}@modelcontextprotocol${sep}`)) return undefined;
      server ??= build.resolve("@modelcontextprotocol/server", {
        kind: "import-statement",
        resolveDir: build.initialOptions.absWorkingDir ?? process.cwd(),
        pluginData: KEEP,
      });
      const serverDir = dirname((await server).path);
      const own = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: KEEP });
      const shared = await build.resolve(args.path, { kind: args.kind, resolveDir: serverDir, pluginData: KEEP });
      return own.errors.length === 0 &&
        shared.errors.length === 0 &&
        zodVersionOf(own.path) !== undefined &&
        zodVersionOf(own.path) === zodVersionOf(shared.path)
        ? shared
        : own;
    });
  },
};

/**
 * The statistics view's script, bundled for the browser (scripts/view-bundle.ts) once per build and
 * written as a string in place of src/view/script.ts, which bundles it itself only when run from source.
 */
let viewScript: string | undefined;
const bundledViewScript: Plugin = {
  name: "bundled-view-script",
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]view[\\/]script\.ts$/ }, () => {
      viewScript ??= bundleStatisticsView();
      return { contents: `export const STATISTICS_VIEW_SCRIPT = ${JSON.stringify(viewScript)};`, loader: "ts" };
    });
  },
};

export default defineConfig([
  // The library (`import { createLinkShortMcpServer } from "@linkshort/mcp"`): every dependency
  // (@linkshort/client, the MCP SDK, zod, jose, pg) stays external, so the bundle holds only the
  // server's own code, none of the client's HTTP, validation, paging or pacing.
  {
    entry: { index: "src/index.ts" },
    format: ["cjs"],
    esbuildPlugins: [bundledViewScript],
    dts: { entry: { index: "src/index.ts" } },
    // The two builds run at once: this one empties dist/ but for the CLI's file.
    clean: ["!cli.js"],
    sourcemap: true,
    target: "node20",
    splitting: false,
  },
  // The CLI (`linkshort-mcp`), spawned by a client for every conversation: one file with its
  // dependencies in it (their ESM builds, so only what it uses), read at once rather than module by
  // module from node_modules, without the whitespace (names kept, for readable stack traces). What
  // only --http, --sign-in or --store need is imported when asked for (cli.ts): bundled, not run by
  // a stdio server.
  {
    entry: { cli: "src/cli.ts" },
    format: ["cjs"],
    platform: "node",
    noExternal: [/.*/],
    // Node's own modules by their names as written: some exist only as `node:` (undici's `node:sqlite`).
    removeNodeProtocol: false,
    esbuildPlugins: [oneZodForTheSdk, bundledViewScript],
    esbuildOptions(options) {
      options.minifyWhitespace = true;
      options.minifySyntax = true;
    },
    dts: false,
    clean: false,
    sourcemap: false,
    target: "node20",
    splitting: false,
  },
]);
