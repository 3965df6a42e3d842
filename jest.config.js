/** One jest run over every package; workspace packages resolve to their sources. */
const swc = [
  "@swc/jest",
  { jsc: { parser: { syntax: "typescript", tsx: true }, target: "es2022", transform: { react: { runtime: "automatic" } } }, module: { type: "commonjs" } },
];

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  transform: { "^.+\\.(t|j)sx?$": swc },
  testMatch: ["<rootDir>/packages/*/test/**/*.test.ts", "<rootDir>/test/**/*.test.ts", "<rootDir>/test/**/*.test.tsx"],
  testPathIgnorePatterns: ["/node_modules/", "/dist/", "/.cache/"],
  // oauth4webapi (the MCP sign-in's tests) ships as ES modules only: transformed like the sources.
  transformIgnorePatterns: ["/node_modules/(?!oauth4webapi/)"],
  modulePathIgnorePatterns: ["<rootDir>/.cache/", "<rootDir>/raycast-extension/dist/"],
  moduleNameMapper: {
    "^@linkshort/client$": "<rootDir>/packages/client/src/index.ts",
    "^@linkshort/client/core$": "<rootDir>/packages/client/src/core.ts",
    "^@linkshort/client/charts$": "<rootDir>/packages/client/src/charts/index.ts",
    "^@linkshort/client/values$": "<rootDir>/packages/client/src/values.ts",
    "^@linkshort/sandbox$": "<rootDir>/packages/sandbox/src/index.ts",
    "^@raycast/api$": "<rootDir>/test/raycast/raycast-api-mock.tsx",
  },
  testTimeout: 20000,
};
