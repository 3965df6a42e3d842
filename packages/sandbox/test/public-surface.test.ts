import { join } from "node:path";
import ts from "typescript";

/**
 * Every name `@linkshort/sandbox` exports, types included: each one is semver surface, so a
 * change to the list is a visible diff here. The rest of `src/` is internal.
 */
const PUBLIC_NAMES = [
  "DateTieOrder",
  "FAULT_KINDS",
  "FaultKind",
  "FaultRule",
  "Mode",
  "OversizedPages",
  "Sandbox",
  "SandboxOptions",
  "ScheduledVisit",
  "SeedOption",
  "demoWeekVisits",
  "emptyStats",
  "seededRandom",
  "startSandbox",
  "visitsBetween",
];

test("@linkshort/sandbox exports exactly its public names", () => {
  const entry = join(__dirname, "../src/index.ts");
  const program = ts.createProgram([entry], { noEmit: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, types: [] });
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
  const names = checker.getExportsOfModule(module).map((symbol) => symbol.getName());
  expect(names.sort()).toEqual(PUBLIC_NAMES);
});
