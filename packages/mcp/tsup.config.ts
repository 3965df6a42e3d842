import { defineConfig } from "tsup";

// Every dependency (@linkshort/client, the MCP SDK, zod) stays external: the bundle holds only the
// server's own code, none of the client's HTTP, validation, paging or pacing.
export default defineConfig({
  entry: { index: "src/index.ts", cli: "src/cli.ts" },
  format: ["cjs"],
  dts: { entry: { index: "src/index.ts" } },
  clean: true,
  sourcemap: true,
  target: "node20",
  splitting: false,
});
