// The bound on a function's length in every package's shipped source, beside the layout test's
// 300-line file cap: a function over MAX_LINES lines (blank lines and comments not counted) is
// split by what it does. Part of `npm run lint`. The n8n node and the Raycast extension keep the
// ESLint configurations their own tools require, so the bound runs here, over all of them alike.
import { ESLint } from "eslint";
import tseslint from "typescript-eslint";

const MAX_LINES = 100;
const SHIPPED = ["packages/*/src/**/*.ts", "nodes/nodes/**/*.ts", "nodes/credentials/**/*.ts", "raycast-extension/src/**/*.{ts,tsx}"];

const eslint = new ESLint({
  overrideConfigFile: true,
  overrideConfig: [
    {
      files: ["**/*.ts", "**/*.tsx"],
      languageOptions: { parser: tseslint.parser, parserOptions: { ecmaFeatures: { jsx: true } } },
      rules: { "max-lines-per-function": ["error", { max: MAX_LINES, skipBlankLines: true, skipComments: true }] },
    },
  ],
  ignorePatterns: ["**/dist/**", "**/node_modules/**"],
});
const results = await eslint.lintFiles(SHIPPED);
const long = results.flatMap((result) =>
  result.messages.map((message) => `${result.filePath.slice(process.cwd().length + 1)}:${message.line} ${message.message}`),
);
for (const line of long) console.error(line);
console.log(
  long.length === 0
    ? `function length: every function of ${results.length} shipped files within ${MAX_LINES} lines`
    : `function length: ${long.length} over ${MAX_LINES} lines`,
);
process.exitCode = long.length === 0 ? 0 : 1;
