/**
 * The test runner's arguments (scripts/run-tests.mjs): `--list` names the suites, and a name that
 * matches no suite is refused before anything runs, with the known names listed.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";

const ROOT = join(__dirname, "../..");

function runTests(...args: string[]) {
  const run = spawnSync(process.execPath, [join(ROOT, "scripts/run-tests.mjs"), ...args], { cwd: ROOT, encoding: "utf8", timeout: 15_000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe("scripts/run-tests.mjs", () => {
  let listed: ReturnType<typeof runTests>;
  let suiteNames: string[];
  beforeAll(() => {
    listed = runTests("--list");
    suiteNames = listed.stdout.trim().split("\n");
  });

  it("names every suite with --list, one a line, and runs none", () => {
    expect(listed.status).toBe(0);
    expect(suiteNames).toEqual(
      expect.arrayContaining(["jest", "lint (eslint, prettier over every package, function length)", "n8n verification scanner", "n8n e2e"]),
    );
    expect(new Set(suiteNames).size).toBe(suiteNames.length);
    expect(listed.stdout).not.toMatch(/===|passed/);
  });

  it("refuses a misspelt suite name with a non-zero exit, naming it and listing the suites, before running any", () => {
    const misspelt = runTests("jets");
    expect(misspelt.status).not.toBe(0);
    expect(misspelt.stderr).toContain('unknown suite: "jets"');
    for (const name of suiteNames) expect(misspelt.stderr).toContain(`  ${name}\n`);
    expect(misspelt.stdout).not.toMatch(/===|passed/);
  });

  it("refuses the whole run when one of several names is unknown, so a known suite beside it does not run alone", () => {
    const mixed = runTests("documents", "documnets", "jets");
    expect(mixed.status).not.toBe(0);
    expect(mixed.stderr).toContain('unknown suites: "documnets", "jets"');
    expect(mixed.stdout).not.toMatch(/=== documents ===/);
  });
});
