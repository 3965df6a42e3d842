// Lints the code that no other linter covers: the client, the sandbox, the repository's scripts and
// the cross-package tests. The n8n node (`n8n-node lint`) and the Raycast extension (`ray lint`'s
// eslint) keep the configurations their own tools require.
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["**/dist/**", "**/build/**", "**/node_modules/**", ".cache/**", "nodes/**", "raycast-extension/**"] },
  ...tseslint.configs.recommended,
  // The published packages' sources get the rules that need type information too.
  ...tseslint.configs.recommendedTypeChecked.map((config) => ({ ...config, files: ["packages/*/src/**/*.ts"] })),
  {
    files: ["packages/*/src/**/*.ts"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  },
  {
    files: ["**/*.{js,mjs,cjs}"],
    languageOptions: { globals: { console: "readonly", process: "readonly", URL: "readonly", setTimeout: "readonly" } },
  },
  {
    // CommonJS on purpose: test helpers that jest (CommonJS) and the .mjs scripts both load.
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs", globals: { require: "readonly", module: "writable", clearTimeout: "readonly" } },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
