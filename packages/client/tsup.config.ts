import { defineConfig } from "tsup";

export default defineConfig({
  // `charts/index` keeps the chart entry's declarations where its source sits (src/charts/index.ts
  // is dist/charts/index.d.ts), as nodes/tsconfig.client-core.json expects of every entry.
  entry: { index: "src/index.ts", core: "src/core.ts", "charts/index": "src/charts/index.ts", values: "src/values.ts" },
  format: ["cjs", "esm"],
  dts: true,
  clean: true,
  sourcemap: true,
  splitting: false,
  target: "node20",
  external: ["zod", "zod/v4", "undici"],
});
