/**
 * The server as a third-party client sees it: the official MCP Inspector CLI (installed, run
 * offline) over stdio and Streamable HTTP lists the tools with `--strict` (no portability problem,
 * no warning), calls them with good input, bad input and a deleted id against the sandbox, and every
 * schema and structured answer is checked with a JSON Schema 2020-12-only validator.
 */
import { startSandbox, type Sandbox } from "@linkshort/sandbox";
import Ajv2020 from "ajv/dist/2020";
import { execFile, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI, startHttpServerProcess } from "./helpers";

const INSPECTOR = require.resolve("@modelcontextprotocol/inspector/clients/launcher/build/index.js");
const catalogDirectory = mkdtempSync(join(tmpdir(), "linkshort-inspector-"));

interface Tool {
  name: string;
  inputSchema: object;
  outputSchema: object;
}
interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
  result: { content?: Array<{ text?: string }>; structuredContent?: unknown; isError?: boolean; tools?: Tool[] } | undefined;
}

let sandbox: Sandbox;
let httpServer: ChildProcess;
let httpUrl: string;

function inspector(target: string[], args: string[]): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [INSPECTOR, "--cli", "--format", "json", ...args, ...target],
      {
        env: { PATH: process.env.PATH ?? "", HOME: catalogDirectory, MCP_CATALOG_PATH: join(catalogDirectory, "mcp.json") },
        timeout: 60_000,
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        let result: Outcome["result"];
        try {
          result = (JSON.parse(stdout) as { result?: Outcome["result"] }).result;
        } catch {
          result = undefined;
        }
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr, result });
      },
    );
  });
}

const stdioTarget = () => [
  "-e",
  `LINKSHORT_BASE_URL=${sandbox.baseUrl}`,
  "-e",
  `LINKSHORT_API_KEY=${sandbox.adminKey}`,
  // The Inspector starts a server per call over stdio: each takes the previews of the one before by this secret.
  "-e",
  `LINKSHORT_MCP_CONFIRMATION_SECRET=${"5e".repeat(32)}`,
  "--",
  process.execPath,
  CLI,
  "--admin",
];
const httpTarget = () => ["--transport", "http", "--server-url", httpUrl];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: { limit: 10_000, windowMs: 60_000 } });
  ({ child: httpServer, url: httpUrl } = await startHttpServerProcess({ baseUrl: sandbox.baseUrl, apiKey: sandbox.adminKey }, ["--admin"]));
});

afterAll(async () => {
  httpServer.kill();
  await sandbox.close();
});

function strictAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  for (const format of ["email", "uri", "date-time"]) ajv.addFormat(format, true);
  return ajv;
}

const toolArgs = (args: Record<string, unknown>) =>
  Object.entries(args).flatMap(([key, value]) => ["--tool-arg", `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`]);

describe.each([
  ["stdio", stdioTarget],
  ["Streamable HTTP", httpTarget],
])("the MCP Inspector CLI over %s", (_transport, target) => {
  let tools: Map<string, Tool>;
  const validators = new Map<string, ReturnType<Ajv2020["compile"]>>();

  async function call(name: string, args: Record<string, unknown>): Promise<Outcome> {
    return inspector(target(), ["--method", "tools/call", "--tool-name", name, ...toolArgs(args)]);
  }

  /** Calls a tool that must succeed; its structured answer must match the tool's output schema. */
  async function succeed(name: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const outcome = await call(name, args);
    expect({
      name,
      code: outcome.code,
      isError: outcome.result?.isError ?? false,
      stderr: outcome.stderr.replace(/^linkshort-mcp: serving .*\n?/gm, ""),
    }).toEqual({
      name,
      code: 0,
      isError: false,
      stderr: "",
    });
    const validate = validators.get(name)!;
    const structured = outcome.result!.structuredContent;
    expect({ name, valid: validate(structured), errors: validate.errors ?? null }).toEqual({ name, valid: true, errors: null });
    return structured as Record<string, unknown>;
  }

  async function fail(name: string, args: Record<string, unknown>, message: RegExp): Promise<void> {
    const outcome = await call(name, args);
    expect(outcome.result?.isError).toBe(true);
    expect(outcome.result?.content?.[0]?.text).toMatch(message);
  }

  test("tools/list --strict: every schema portable, without a warning, and compiled by a 2020-12-only validator", async () => {
    const outcome = await inspector(target(), ["--strict", "--method", "tools/list"]);
    expect(outcome.code).toBe(0);
    expect(outcome.stderr).not.toMatch(/warn|portab|problem|error/i);
    tools = new Map(outcome.result!.tools!.map((tool) => [tool.name, tool]));
    expect(tools.size).toBe(17);
    for (const tool of tools.values()) {
      strictAjv().compile(tool.inputSchema);
      validators.set(tool.name, strictAjv().compile(tool.outputSchema));
    }
  }, 60_000);

  test("good input: every tool answers, and every structured answer matches its output schema", async () => {
    const alias = `insp-${_transport === "stdio" ? "s" : "h"}${Date.now() % 100000}`;
    const created = await succeed("shorten_link", { url: "https://example.com/inspector", custom: alias });
    const id = created.id as number;
    expect((await succeed("find_links", { text: alias })).links).toEqual([expect.objectContaining({ id, alias })]);
    expect(await succeed("get_link", { id })).toMatchObject({ details: { id } });
    expect(await succeed("get_link", { id, period: "24h", timeZone: "Europe/Berlin" })).toMatchObject({ top: false, links: [expect.objectContaining({ id })] });
    await succeed("get_link", { period: "7d" });
    const change = { ids: [id], set: { url: "https://example.com/inspector-2" } };
    const { confirmation } = await succeed("update_links", change);
    expect(await succeed("update_links", { ...change, confirmation })).toMatchObject({ counts: { done: 1 } });
    const { confirmation: deleteConfirmation } = await succeed("delete_links", { ids: [id] });
    expect(deleteConfirmation).toEqual(expect.any(String));
    await succeed("create_qr_code", { type: "email", data: { email: "team@example.com", subject: "Hello" }, name: "inspector" });
    await succeed("create_qr_code", { type: "link", data: "https://example.com/qr" });
    await succeed("list_qr_codes", {});
    await succeed("list_domains", {});
    await succeed("get_account", {});
    const plans = (await succeed("list_plans")).plans as Array<{ id: number }>;
    await succeed("list_users", {});
    const user = await succeed("create_user", {
      username: `insp${Date.now() % 100000}`,
      email: `insp${Date.now() % 100000}@example.com`,
      password: "secret-pass",
    });
    await succeed("get_user", { id: user.id });
    await succeed("subscribe_user_to_plan", { planId: plans[0]!.id, userId: user.id, type: "monthly" });
    await succeed("delete_user", { id: user.id });
    expect(await succeed("delete_links", { ids: [id], confirmation: deleteConfirmation })).toMatchObject({ counts: { done: 1 } });

    // The deleted link, and bad input, each as a tool error the model can act on.
    await fail("get_link", { id }, /^Not found: .*find_links/);
    await fail("get_user", { id: user.id }, /^Not found: .*list_users/);
    await fail("get_link", { id: "x" }, /id/);
    await fail("get_link", { timeZone: "Mars/Olympus" }, /must be an IANA time zone this system knows.* at timeZone/);
    await fail("shorten_link", { url: "not a url" }, /must be a valid http or https URL at url/);
    await fail("create_qr_code", { type: "wifi", data: { password: "no ssid" } }, /data\.ssid/);
  }, 180_000);
});
