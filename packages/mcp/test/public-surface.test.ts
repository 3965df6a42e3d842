/** What `@linkshort/mcp` exports from its package entry, types included: each name is semver surface. */
import { join } from "node:path";
import ts from "typescript";

const PUBLIC_NAMES = [
  "CommandLine",
  "ConfigError",
  "FreshnessAnswer",
  "HttpServer",
  "HttpServerOptions",
  "LinkShortMcpOptions",
  "ServerLinkIndex",
  "ServerLinkIndexOptions",
  "clientFromEnvironment",
  "createLinkShortMcpServer",
  "parseCommandLine",
  "startHttpServer",
];

test("the package entry exports exactly the listed names", () => {
  const configPath = join(__dirname, "../tsconfig.json");
  const config = ts.getParsedCommandLineOfConfigFile(configPath, undefined, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  if (!config) throw new Error("packages/mcp/tsconfig.json did not parse");
  const entry = join(__dirname, "../src/index.ts");
  const program = ts.createProgram([entry], { ...config.options, noEmit: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  const module = source && checker.getSymbolAtLocation(source);
  if (!module) throw new Error("src/index.ts is not a module");
  const names = checker.getExportsOfModule(module).map((symbol) => symbol.getName());
  expect(names.sort()).toEqual(PUBLIC_NAMES);
});
