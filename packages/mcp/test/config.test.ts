/** Starting the binary: configuration mistakes are named by their variable or flag, and the key is never printed. */
import { spawnSync } from "node:child_process";
import { CLI } from "./helpers";

const KEY = "sk-config-test-5a9e77c1";

function run(env: Record<string, string>, args: string[] = []) {
  const result = spawnSync(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? "", ...env }, encoding: "utf8", timeout: 10_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

test.each([
  [{ LINKSHORT_API_KEY: KEY }, /^linkshort-mcp: LINKSHORT_BASE_URL is not set\./],
  [{ LINKSHORT_BASE_URL: "https://short.example.com" }, /^linkshort-mcp: LINKSHORT_API_KEY is not set\./],
  [{}, /^linkshort-mcp: LINKSHORT_BASE_URL is not set; LINKSHORT_API_KEY is not set\./],
  [{ LINKSHORT_BASE_URL: "short.example.com", LINKSHORT_API_KEY: KEY }, /^linkshort-mcp: LINKSHORT_BASE_URL must be a valid http or https URL\./],
  [{ LINKSHORT_BASE_URL: "https://short.example.com", LINKSHORT_API_KEY: "   " }, /^linkshort-mcp: LINKSHORT_API_KEY is required\./],
])("refuses to start with %j", (env, message) => {
  const { status, stderr, stdout } = run(env);
  expect(status).toBe(1);
  expect(stderr).toMatch(message);
  expect(stderr).toContain("Usage: linkshort-mcp");
  expect(stdout).toBe("");
  expect(stderr).not.toContain(KEY);
});

test.each([
  [["--http", "port"], /--http must be a whole number from 0 to 65535, not "port"/],
  [["--host", "0.0.0.0"], /--host needs --http PORT/],
  [["--max-wait", "-1"], /--max-wait/],
  [["--verbose"], /Unknown option '--verbose'/],
])("refuses the command line %j", (args, message) => {
  const { status, stderr } = run({ LINKSHORT_BASE_URL: "https://short.example.com", LINKSHORT_API_KEY: KEY }, args);
  expect(status).toBe(1);
  expect(stderr).toMatch(message);
  expect(stderr).not.toContain(KEY);
});

test("--help prints the usage with the variables", () => {
  const { status, stdout } = run({}, ["--help"]);
  expect(status).toBe(0);
  expect(stdout).toMatch(/LINKSHORT_BASE_URL[\s\S]*LINKSHORT_API_KEY[\s\S]*--http PORT[\s\S]*--admin/);
});
